import { describe, expect, it } from 'vitest';
import { PUBLISHER_MESSAGES } from '../../../contract/publisher.ts';
import { publisherStatuses } from '../../../contract/roles.ts';
import { AppError } from '../../errors.ts';
import { assertCanApply, canApply } from './apply.policy.ts';

describe('canApply', () => {
  it('lets approved and legacy active publishers apply, nobody else', () => {
    expect(publisherStatuses.filter(canApply)).toEqual(['approved', 'active']);
  });
});

describe('assertCanApply', () => {
  it('passes an approved or legacy active publisher', () => {
    expect(() => assertCanApply('approved')).not.toThrow();
    expect(() => assertCanApply('active')).not.toThrow();
  });

  it('answers a pending publisher 403 account_pending with the spec sentence', () => {
    const err = catchError(() => assertCanApply('pending'));
    expect(err).toMatchObject({
      code: 'account_pending',
      status: 403,
      message: PUBLISHER_MESSAGES.accountPending,
    });
  });

  it('answers a blocked publisher 403 forbidden, saying the account is blocked', () => {
    const err = catchError(() => assertCanApply('blocked'));
    expect(err).toMatchObject({ code: 'forbidden', message: 'Your account is blocked.' });
  });
});

function catchError(fn: () => void): AppError {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an AppError');
}
