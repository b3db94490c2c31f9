import type * as documents from '@contract/documents.ts';
import { useQuery } from '@tanstack/react-query';
import { apiCall, apiDownload } from '@/lib/api-client.ts';
import { documentHooks, useApiMutation, useListQuery } from '@/lib/api-queries.ts';
import { type EndpointQuery, get, post, type QueryOf } from '@/lib/api-routes.ts';

const enc = encodeURIComponent;

/**
 * Documents people sign (issue 33), typed beside their hooks (web/lib/api-routes.ts is in the
 * /login bundle): the admin's Signatures list and publisher card, the publisher's screens, and
 * the signed PDF both download.
 */
export const signatureRoutes = {
  list: get<documents.DocumentList, QueryOf<typeof documents.DocumentListQuery>>('admin/documents'),
  /** Multipart: publisher_id, kind, application_id (an IO's), title, file (a PDF). */
  send: post<{ id: string }, undefined, FormData>('admin/documents'),
  remind: post<documents.RemindDocumentsResult, undefined, documents.RemindDocumentsBody>(
    'admin/documents/remind',
  ),
  /** Multipart, part `file`: the PDF to check. */
  verify: post<documents.VerifyResult, undefined, FormData>('documents/verify'),
  mine: get<documents.PublisherSignatureList>('publisher/signatures'),
  open: (id: string) => get<documents.SignatureDocumentDetail>(`publisher/documents/${enc(id)}`),
  sign: (id: string) =>
    post<documents.SignatureDocumentDetail, undefined, documents.SignDocumentBody>(
      `publisher/documents/${enc(id)}/sign`,
    ),
  signedPdf: (id: string) => get<Blob>(`documents/${enc(id)}/signed.pdf`),
} as const;

export const signaturesKey = ['signatures'] as const;

/** GET /admin/documents: one page of the Signatures list (or one publisher's). */
export const useSignatureList = (query: EndpointQuery<typeof signatureRoutes.list>) =>
  useListQuery(signaturesKey, signatureRoutes.list, query);

/** POST /admin/documents: sends a PDF for signature (a new version when one is there). */
export const useSendDocument = () =>
  useApiMutation((form: FormData) => apiCall(signatureRoutes.send, { body: form }), signaturesKey);

/** POST /admin/documents/remind: mails the publishers of the chosen documents. */
export const useRemindDocuments = () =>
  useApiMutation(
    (ids: string[]) => apiCall(signatureRoutes.remind, { body: { ids } }),
    signaturesKey,
  );

/** POST /documents/verify: whether a PDF is an unchanged copy sealed by this portal. */
export const useVerifyDocument = () =>
  useApiMutation((form: FormData) => apiCall(signatureRoutes.verify, { body: form }), []);

/** Settings → re-sign every N months. */
export const documentSettingsHooks = documentHooks<
  documents.DocumentSettings,
  documents.DocumentSettings
>('admin/document-settings', [...signaturesKey, 'settings']);

/** Settings → Document templates: the texts agreements and IOs are sent from. */
export const documentTemplateHooks = documentHooks<
  documents.DocumentTemplates,
  documents.DocumentTemplates
>('admin/document-templates', [...signaturesKey, 'templates']);

/** GET /publisher/signatures: the publisher's own documents to sign or signed. */
export const useMySignatures = () =>
  useQuery({
    queryKey: [...signaturesKey, 'mine'],
    queryFn: ({ signal }) => apiCall(signatureRoutes.mine, { signal }),
  });

/** GET /publisher/documents/:id: the document to read and sign (opening it is recorded). */
export const useSignatureDocument = (id: string) =>
  useQuery({
    queryKey: [...signaturesKey, 'doc', id],
    queryFn: ({ signal }) => apiCall(signatureRoutes.open(id), { signal }),
  });

/** POST /publisher/documents/:id/sign. */
export const useSignDocument = (id: string) =>
  useApiMutation(
    (body: documents.SignDocumentBody) => apiCall(signatureRoutes.sign(id), { body }),
    signaturesKey,
  );

/** Saves the sealed signed PDF under the server's file name. */
export const downloadSignedPdf = (id: string, title: string) =>
  apiDownload(signatureRoutes.signedPdf(id), undefined as never, `${title} (signed).pdf`);
