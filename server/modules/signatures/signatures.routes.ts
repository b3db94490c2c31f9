import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  DocumentIdParams,
  DocumentList,
  DocumentListQuery,
  DocumentSettings,
  DocumentTemplates,
  PublisherSignatureList,
  RemindDocumentsBody,
  RemindDocumentsResult,
  SendDocumentFields,
  SignatureDocumentDetail,
  SignDocumentBody,
  VerifyResult,
} from '../../../contract/documents.ts';
import { uploadRules } from '../../../contract/uploads.ts';
import { currentUser, requireAuth, requireRole } from '../../auth/guard.ts';
import { AppError, badRequest } from '../../errors.ts';
import { actorOf, adminDoc, bearerDoc, errorReplies } from '../../http/route-helpers.ts';
import { kitPlugin, routeKit, type ZodApp } from '../../http/route-kit.ts';
import {
  receiveFileBuffer,
  receiveUploads,
  uploadFields,
  writeOrRemove,
} from '../../storage/upload.ts';
import {
  getDocumentDetail,
  getDocumentSettings,
  listDocuments,
  listOwnDocuments,
  remindDocuments,
  sendDocument,
  updateDocumentSettings,
  viewDocument,
} from './documents.service.ts';
import { loadSeal, sha256Hex } from './seal.ts';
import {
  readSignedPdf,
  readStored,
  type SigningKit,
  signDocument,
  verifyPdf,
} from './sign.service.ts';
import { getDocumentTemplates, storeTemplatePdf, updateDocumentTemplates } from './templates.ts';

/** The portal's seal, made on first use in the data folder (see seal.ts). */
const sealOf = (app: ZodApp) => () =>
  loadSeal(app.config.dataDir, `${new URL(app.config.publicUrl).host} document seal`);

const Created = z.object({ id: z.string() });

/** Admin → Signatures: send a document (or a new version), the list, one document, reminders. */
export const adminSignatureRoutes = kitPlugin(adminDoc, (admin, app) => {
  admin.route(
    'POST',
    '/documents',
    {
      consumes: ['multipart/form-data'],
      description:
        'multipart/form-data: `publisher_id`, `kind` (agreement or io), `application_id` (an IO’s), optional `title`, and `file` (a PDF) or `template` (agreement or io: the Settings template with the publisher’s and offer’s fields filled in).',
      reply: Created,
      status: 201,
      errors: errorReplies(404, 413, 415),
    },
    async (req, reply) => {
      const actor = actorOf(req);
      const { files, fields } = await receiveUploads(req, app.storage, {
        owner: actor.id,
        files: uploadFields(uploadRules.signDocument, 'marketing_agreements', {
          file: { min: 0 },
        }),
      });
      const uploaded = files.file![0];
      const input = SendDocumentFields.safeParse(fields);
      if (!input.success) {
        await Promise.all(files.file!.map((f) => app.storage.delete(f.key)));
        const issue = input.error.issues[0];
        const field = String(issue?.path[0] ?? 'publisher_id');
        const message = issue?.message ?? 'Please check the form.';
        throw badRequest(message, { [field]: [message] });
      }
      const { template } = input.data;
      if (template && uploaded) {
        await app.storage.delete(uploaded.key);
        throw badRequest('Send either a PDF or a template, not both.', {
          file: ['Send either a PDF or a template, not both.'],
        });
      }
      if (!template && !uploaded) {
        throw new AppError('missing_files', 'Please choose a PDF, or send from a template.', {
          status: 400,
          details: { file: ['Please choose a PDF, or send from a template.'] },
        });
      }
      const made = template
        ? await storeTemplatePdf({
            db: app.db,
            storage: app.storage,
            owner: actor.id,
            template,
            publisherId: input.data.publisher_id,
            applicationId: input.data.application_id,
          })
        : null;
      const file = made?.file ?? uploaded!;
      const result = await writeOrRemove({
        storage: app.storage,
        keys: [file.key],
        log: req.log,
        write: async () => {
          const data = made?.data ?? (await readStored(app.storage, file.key));
          if (!data) throw new AppError('internal_error', 'The upload could not be read back.');
          return {
            result: await sendDocument({
              db: app.db,
              actor,
              input: { ...input.data, title: input.data.title || made?.title },
              fileKey: file.key,
              fileName: file.filename,
              sha256: sha256Hex(data),
              publicUrl: app.config.publicUrl,
            }),
          };
        },
      });
      return reply.status(201).send(result);
    },
  );
  admin.list('/documents', { query: DocumentListQuery, reply: DocumentList }, (o) =>
    listDocuments({ ...o, storage: app.storage }),
  );
  admin.route(
    'GET',
    '/documents/:id',
    { params: DocumentIdParams, reply: SignatureDocumentDetail },
    (req) => getDocumentDetail({ db: app.db, storage: app.storage, id: req.params.id }),
  );
  admin.command(
    '/documents/remind',
    { body: RemindDocumentsBody, reply: RemindDocumentsResult },
    (o) =>
      remindDocuments({
        db: o.db,
        actor: o.actor,
        ids: o.input.ids,
        publicUrl: app.config.publicUrl,
      }),
  );
  // Settings → Documents: the re-sign period and the templates, each read and saved whole.
  for (const [path, schema, get, save] of [
    ['/document-templates', DocumentTemplates, getDocumentTemplates, updateDocumentTemplates],
    ['/document-settings', DocumentSettings, getDocumentSettings, updateDocumentSettings],
  ] as const) {
    admin.route('GET', path, { reply: schema }, () => get(app.db));
    admin.route('PUT', path, { body: schema, reply: schema }, (req) =>
      // The body was validated by the pair's own schema.
      save({ db: app.db, actor: actorOf(req), input: req.body as never }),
    );
  }
});

/** The request's address and browser, as a signature records them. */
const clientOf = (req: FastifyRequest) => ({
  ip: req.ip,
  userAgent: String(req.headers['user-agent'] ?? '').slice(0, 500) || 'unknown',
});

/** /api/v1/publisher: the publisher's own documents to sign; anyone else's is a 404. */
export const publisherSignatureRoutes: FastifyPluginAsyncZod = async (app) => {
  const mine = routeKit(app, bearerDoc('publisher'), errorReplies(400, 401, 403, 404));
  const kit: SigningKit = {
    storage: app.storage,
    seal: sealOf(app),
    publicUrl: app.config.publicUrl,
  };
  mine.route('GET', '/signatures', { reply: PublisherSignatureList }, (req) =>
    listOwnDocuments({ db: app.db, storage: app.storage, publisherId: currentUser(req).id }),
  );
  mine.route(
    'GET',
    '/documents/:id',
    { params: DocumentIdParams, reply: SignatureDocumentDetail },
    (req) =>
      viewDocument({
        db: app.db,
        storage: app.storage,
        id: req.params.id,
        publisher: actorOf(req),
        ...clientOf(req),
      }),
  );
  mine.route(
    'POST',
    '/documents/:id/sign',
    {
      params: DocumentIdParams,
      body: SignDocumentBody,
      reply: SignatureDocumentDetail,
      errors: errorReplies(409),
    },
    (req) =>
      signDocument({
        db: app.db,
        kit,
        id: req.params.id,
        publisher: actorOf(req),
        input: req.body,
        ...clientOf(req),
      }),
  );
};

/** Refuses anyone but an admin or a publisher (after requireAuth). */
async function adminOrPublisher(req: FastifyRequest): Promise<void> {
  const role = currentUser(req).role;
  if (role !== 'admin' && role !== 'publisher') {
    throw new AppError('forbidden', 'This area is for administrators and publishers only.');
  }
}

/**
 * /api/v1/documents: the signed PDF (the admin's, or its own publisher's) and the check of a
 * signed copy an admin uploads.
 */
export const documentFileRoutes: FastifyPluginAsyncZod = async (app) => {
  await app.register(async (files) => {
    files.addHook('onRequest', requireAuth);
    files.addHook('onRequest', adminOrPublisher);
    const kit = routeKit(files, bearerDoc('documents'), errorReplies(401, 403, 404));
    kit.route(
      'GET',
      '/:id/signed.pdf',
      { params: DocumentIdParams, description: 'The sealed signed PDF (application/pdf).' },
      async (req, reply) => {
        const user = currentUser(req);
        const pdf = await readSignedPdf({
          db: app.db,
          storage: app.storage,
          id: req.params.id,
          publisherId: user.role === 'admin' ? undefined : user.id,
        });
        return reply
          .header('content-type', 'application/pdf')
          .header('cache-control', 'no-store')
          .header('content-disposition', `attachment; filename="${pdf.fileName}"`)
          .send(pdf.data);
      },
    );
  });
  await app.register(async (check) => {
    check.addHook('onRequest', requireRole('admin'));
    const kit = routeKit(check, bearerDoc('documents'), errorReplies(400, 401, 403, 413, 415));
    kit.route(
      'POST',
      '/verify',
      {
        consumes: ['multipart/form-data'],
        reply: VerifyResult,
        description: 'multipart/form-data: `file`, the PDF to check.',
      },
      async (req) => {
        const { data } = await receiveFileBuffer(req, {
          field: 'file',
          maxBytes: 30 * 1024 * 1024,
          tooLarge: 'The PDF is larger than 30 MB.',
          missing: 'Please choose the PDF to check.',
        });
        return verifyPdf({ db: app.db, seal: sealOf(app)(), data });
      },
    );
  });
};
