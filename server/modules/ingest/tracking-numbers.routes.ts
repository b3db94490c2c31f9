import { IdParams } from '../../../contract/admin.ts';
import {
  CreateTrackingNumber,
  TrackingNumber,
  TrackingNumberImport,
  TrackingNumberList,
  TrackingNumberListQuery,
} from '../../../contract/integrations.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { kitPlugin } from '../../http/route-kit.ts';
import {
  createTrackingNumber,
  deleteTrackingNumber,
  importTrackingNumbers,
  listTrackingNumbers,
  TRACKING_IMPORT_MAX_BYTES,
} from './tracking-numbers.service.ts';

/**
 * Tracking numbers (issue 26): the numbers calls arrive on, each assigned to a publisher on an
 * offer; one by one or from a CSV file (all rows or none).
 */
export const adminTrackingNumbersRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.list(
    '/tracking-numbers',
    { query: TrackingNumberListQuery, reply: TrackingNumberList },
    listTrackingNumbers,
  );

  admin.route(
    'POST',
    '/tracking-numbers',
    { body: CreateTrackingNumber, reply: TrackingNumber, status: 201 },
    async (req, reply) =>
      reply
        .code(201)
        .send(await createTrackingNumber({ db: app.db, actor: actorOf(req), input: req.body })),
  );

  // A file with a wrong line answers 200 with `created: 0` and the lines' errors: nothing written.
  admin.csvUpload(
    '/tracking-numbers/import',
    {
      reply: TrackingNumberImport,
      maxBytes: TRACKING_IMPORT_MAX_BYTES,
      tooLarge: 'Split it into smaller files and import them one after another.',
    },
    importTrackingNumbers,
  );

  admin.remove('/tracking-numbers/:id', { params: IdParams }, deleteTrackingNumber);
});
