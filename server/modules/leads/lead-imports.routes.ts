import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { IdParams } from '../../../contract/admin.ts';
import { CheckLeadImport, IMPORT_MAX_BYTES, LeadImport } from '../../../contract/lead-actions.ts';
import { actorOf, adminDoc } from '../../http/route-helpers.ts';
import { receiveFileBuffer } from '../../storage/upload.ts';
import {
  createImport,
  getImport,
  runningImports,
  startCheck,
  startImport,
} from './lead-imports.service.ts';

/**
 * CSV import of leads: upload (multipart, part `file`), check with a column mapping (a dry
 * run), import; the check and the import run in the background and the screen polls GET.
 */
export const adminLeadImportsRoutes: FastifyPluginAsyncZod = async (app) => {
  // A check or import still running finishes (or fails and says so) before the app closes.
  app.addHook('onClose', async () => {
    await Promise.allSettled([...runningImports]);
  });

  app.post(
    '/lead-imports',
    {
      schema: {
        ...adminDoc,
        consumes: ['multipart/form-data'],
        response: { 201: LeadImport },
      },
    },
    async (req, reply) => {
      const file = await receiveFileBuffer(req, {
        field: 'file',
        maxBytes: IMPORT_MAX_BYTES,
        tooLarge: `The file is larger than ${IMPORT_MAX_BYTES / 1024 / 1024} MB. Split it into smaller files and import them one after another.`,
        missing: 'Please choose a CSV file.',
      });
      const made = await createImport({
        db: app.db,
        actor: actorOf(req),
        filename: file.filename,
        data: file.data,
      });
      return reply.code(201).send(made);
    },
  );

  app.get(
    '/lead-imports/:id',
    { schema: { ...adminDoc, params: IdParams, response: { 200: LeadImport } } },
    async (req) => getImport({ db: app.db, id: req.params.id }),
  );

  app.post(
    '/lead-imports/:id/check',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        body: CheckLeadImport,
        response: { 202: LeadImport },
      },
    },
    async (req, reply) =>
      reply
        .code(202)
        .send(
          await startCheck({ db: app.db, actor: actorOf(req), id: req.params.id, input: req.body }),
        ),
  );

  app.post(
    '/lead-imports/:id/import',
    {
      schema: {
        ...adminDoc,
        params: IdParams,
        response: { 202: LeadImport },
      },
    },
    async (req, reply) =>
      reply
        .code(202)
        .send(await startImport({ db: app.db, actor: actorOf(req), id: req.params.id })),
  );
};
