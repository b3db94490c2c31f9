import { IdParams } from '../../../contract/admin-common.ts';
import {
  BlockedCaller,
  BlockedCallerImport,
  BlockedCallerList,
  BlockedCallerListQuery,
  ClearFraudFlags,
  ConfirmFraudFlags,
  CreateBlockedCaller,
  FraudFlagList,
  FraudFlagListQuery,
  FraudFlagsChanged,
  FraudRule,
  FraudRuleParamsPath,
  FraudRules,
  LeadFraud,
  PublisherFraudScore,
  UpdateFraudRule,
} from '../../../contract/fraud.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  BLOCKLIST_IMPORT_MAX_BYTES,
  createBlockedCaller,
  deleteBlockedCaller,
  importBlockedCallers,
  listBlockedCallers,
} from './blocklist.service.ts';
import {
  clearFraudFlags,
  confirmFraudFlags,
  leadFraud,
  listFraudFlags,
  publisherFraudScore,
} from './flags.service.ts';
import { listRules, updateRule } from './rules.ts';

/**
 * The admin's fraud routes (issue 32 items 3–4): the caller blocklist, the rules' settings, the
 * Fraud queue with bulk confirm and clear, a lead's flags and a publisher's score.
 */
export const adminFraudRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.list(
    '/blocked-callers',
    { query: BlockedCallerListQuery, reply: BlockedCallerList },
    listBlockedCallers,
  );
  admin.create(
    '/blocked-callers',
    { body: CreateBlockedCaller, reply: BlockedCaller },
    createBlockedCaller,
  );
  // A file with a wrong line answers 200 with `created: 0` and the lines' errors: nothing written.
  admin.csvUpload(
    '/blocked-callers/import',
    {
      reply: BlockedCallerImport,
      maxBytes: BLOCKLIST_IMPORT_MAX_BYTES,
      tooLarge: 'Split it and import the parts one after another.',
    },
    importBlockedCallers,
  );
  admin.remove('/blocked-callers/:id', { params: IdParams }, deleteBlockedCaller);

  admin.route('GET', '/fraud-rules', { reply: FraudRules }, async () => listRules({ db: app.db }));
  admin.route(
    'PUT',
    '/fraud-rules/:rule',
    { params: FraudRuleParamsPath, body: UpdateFraudRule, reply: FraudRule },
    async (req) =>
      updateRule({ db: app.db, actor: actorOf(req), rule: req.params.rule, input: req.body }),
  );

  admin.list('/fraud-flags', { query: FraudFlagListQuery, reply: FraudFlagList }, listFraudFlags);
  admin.command(
    '/fraud-flags/confirm',
    { body: ConfirmFraudFlags, reply: FraudFlagsChanged },
    confirmFraudFlags,
  );
  admin.command(
    '/fraud-flags/clear',
    { body: ClearFraudFlags, reply: FraudFlagsChanged },
    clearFraudFlags,
  );

  admin.read('/leads/:id/fraud', { params: IdParams, reply: LeadFraud }, leadFraud);
  admin.read(
    '/publishers/:id/fraud-score',
    { params: IdParams, reply: PublisherFraudScore },
    publisherFraudScore,
  );
});
