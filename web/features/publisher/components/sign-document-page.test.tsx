import type { SignatureDocumentDetail } from '@contract/documents.ts';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { beforeEach, describe, expect, it } from 'vitest';
import { renderWithApp } from '@/test/render.tsx';
import { json, stubApi } from '@/test/stub-api.ts';
import { SignDocumentPage } from './sign-document-page.tsx';

const base: SignatureDocumentDetail = {
  id: 'd1',
  kind: 'agreement',
  version: 2,
  title: 'Marketing agreement',
  publisher_id: 'p1',
  publisher_name: 'Ann',
  publisher_email: 'ann@example.com',
  application_id: null,
  offer_title: null,
  status: 'viewed',
  sent_at: '2026-11-01T10:00:00Z',
  viewed_at: '2026-11-01T11:00:00Z',
  signed_at: null,
  expires_at: null,
  last_reminded_at: null,
  document_sha256: 'a'.repeat(64),
  file_url: '/files/marketing_agreements/p1/x-agreement.pdf?expires=1&sig=x',
  signed_pdf_path: null,
  can_sign: true,
  signature: null,
  events: [],
  consent_text: 'I agree to sign this document electronically.',
};

let signed: unknown[] = [];
let current: SignatureDocumentDetail = base;

beforeEach(() => {
  signed = [];
  current = base;
  stubApi(({ method, path, body }) => {
    if (path === '/api/v1/publisher/documents/d1' && method === 'GET') return json(200, current);
    if (path === '/api/v1/publisher/documents/d1/sign') {
      signed.push(body);
      current = {
        ...base,
        status: 'signed',
        can_sign: false,
        signed_at: '2026-11-02T10:00:00Z',
        signed_pdf_path: '/api/v1/documents/d1/signed.pdf',
        signature: {
          full_name: body.full_name,
          email: 'ann@example.com',
          signed_at: '2026-11-02T10:00:00Z',
          ip: '203.0.113.1',
          user_agent: 'test',
          consent_text: base.consent_text,
          shown_sha256: base.document_sha256,
          sealed_sha256: 'b'.repeat(64),
          expires_at: null,
        },
      };
      return json(200, current);
    }
    return undefined;
  });
});

describe('SignDocumentPage', () => {
  it('shows the PDF, asks the name and the consent, and signs with the hash shown', async () => {
    renderWithApp(
      <Routes>
        <Route path="/dashboard/documents/:id" element={<SignDocumentPage />} />
      </Routes>,
      { url: '/dashboard/documents/d1' },
    );
    expect(await screen.findByRole('heading', { name: 'Marketing agreement' })).toBeTruthy();
    expect(screen.getByTitle('Marketing agreement (PDF)').getAttribute('src')).toBe(base.file_url);
    const sign = screen.getByRole('button', { name: 'Sign' }) as HTMLButtonElement;
    expect(sign.disabled).toBe(true);
    fireEvent.click(screen.getByRole('checkbox', { name: base.consent_text }));
    fireEvent.click(sign);
    expect(await screen.findByText('Please type your full legal name.')).toBeTruthy();
    fireEvent.change(screen.getByRole('textbox', { name: /Full legal name/ }), {
      target: { value: 'Ann Example' },
    });
    fireEvent.click(sign);
    await waitFor(() => expect(signed).toHaveLength(1));
    expect(signed[0]).toEqual({
      full_name: 'Ann Example',
      consent: true,
      document_sha256: base.document_sha256,
    });
    expect(await screen.findByRole('button', { name: 'Download signed PDF' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull();
  });
});
