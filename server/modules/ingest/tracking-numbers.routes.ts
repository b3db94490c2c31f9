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
import { receiveFileBuffer } from '../../storage/upload.ts';
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
  admin.route(
    'POST',
    '/tracking-numbers/import',
    { consumes: ['multipart/form-data'], reply: TrackingNumberImport },
    async (req) => {
      const file = await receiveFileBuffer(req, {
        field: 'file',
        maxBytes: TRACKING_IMPORT_MAX_BYTES,
        tooLarge: `The file is larger than ${TRACKING_IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files and import them one after another.`,
        missing: 'Please choose a CSV file.',
      });
      return importTrackingNumbers({
        db: app.db,
        actor: actorOf(req),
        filename: file.filename,
        data: file.data,
      });
    },
  );

  admin.remove('/tracking-numbers/:id', { params: IdParams }, deleteTrackingNumber);
});
