import { describe, expect, it } from 'vitest';
import { ME_SQL } from '../../bench/me-sql.ts';
import { openPostgres } from '../db/client.ts';
import { guardSql } from './guard.ts';

describe('the bench ladder runs the guard’s SQL', () => {
  it('bench/me-sql.ts holds the same statement as the guard', async () => {
    // Preparing builds the text only; nothing connects.
    const database = openPostgres('postgres://nobody@127.0.0.1:1/none');
    try {
      expect(guardSql(database.db)).toBe(ME_SQL);
    } finally {
      await database.close();
    }
  });
});
