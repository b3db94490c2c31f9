import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshTokens } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../test/build-test-app.ts';
import { buildPublisher } from '../test/factories.ts';
import { getAuthUser, passwordSession, postToken } from '../test/gotrue.ts';

// Issue 11 item 7: a stolen refresh token must not give its holder the victim's live token.
let t: TestApp;
beforeAll(async () => {
  t = await buildTestApp();
});
afterAll(() => t.close());

const refresh = (refresh_token: string) => postToken(t, 'refresh_token', { refresh_token });
const getUser = (access: string) => getAuthUser(t, access);

async function signIn() {
  const u = await buildPublisher(t.db);
  return passwordSession(t, u.email, u.password);
}
/** Moves every revoked token's revocation back by `seconds` (the window is 10 s). */
const ageRevocations = (seconds: number) =>
  t.db
    .update(refreshTokens)
    .set({ updatedAt: new Date(Date.now() - seconds * 1000) })
    .where(eq(refreshTokens.revoked, true));

describe('refresh-token replay', () => {
  it('a replay after the reuse window ends the session even though the child is unused', async () => {
    const s0 = await signIn();
    const s1 = (await refresh(s0.refresh_token)).json();
    await ageRevocations(11);
    const replay = await refresh(s0.refresh_token);
    expect(replay.statusCode).toBe(400);
    expect(replay.json().code).toBe('refresh_token_already_used');
    // The victim's live tokens died with the family: nobody holds the session any more.
    expect((await refresh(s1.refresh_token)).json().code).toBe('refresh_token_not_found');
    expect((await getUser(s1.access_token)).json().code).toBe('session_not_found');
  });

  it('the thief who refreshes first loses the session when the victim comes back', async () => {
    const victim = await signIn();
    const stolen = victim.refresh_token;
    const thief = (await refresh(stolen)).json();
    expect(thief.refresh_token).toBeTruthy();
    // The thief uses the child; the victim later presents the same (stolen) parent.
    const thief2 = (await refresh(thief.refresh_token)).json();
    const victimTry = await refresh(stolen);
    expect(victimTry.json().code).toBe('refresh_token_already_used');
    expect((await getUser(thief2.access_token)).json().code).toBe('session_not_found');
    expect((await refresh(thief2.refresh_token)).json().code).toBe('refresh_token_not_found');
  });

  it('a lost answer within the window still gets the same unused child, once per retry', async () => {
    const s0 = await signIn();
    const s1 = (await refresh(s0.refresh_token)).json();
    for (let i = 0; i < 3; i++) {
      const again = await refresh(s0.refresh_token);
      expect(again.statusCode).toBe(200);
      expect(again.json().refresh_token).toBe(s1.refresh_token);
    }
    const s2 = await refresh(s1.refresh_token);
    expect(s2.statusCode).toBe(200);
    expect((await getUser(s2.json().access_token)).statusCode).toBe(200);
  });
});
