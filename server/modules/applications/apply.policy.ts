import { PUBLISHER_MESSAGES } from '../../../contract/publisher.ts';
import { isApprovedPublisher, type UserStatus } from '../../../contract/roles.ts';
import { AppError } from '../../errors.ts';

/** Only approved publishers (or the legacy `active`) may apply to offers. */
export function canApply(status: UserStatus): boolean {
  return isApprovedPublisher(status);
}

/** Throws the 403 a pending or blocked publisher gets when trying to apply. */
export function assertCanApply(status: UserStatus): void {
  if (canApply(status)) return;
  if (status === 'blocked') throw new AppError('forbidden', 'Your account is blocked.');
  throw new AppError('account_pending', PUBLISHER_MESSAGES.accountPending, { status: 403 });
}
