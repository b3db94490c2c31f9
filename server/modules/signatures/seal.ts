import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pdflibAddPlaceholder } from '@signpdf/placeholder-pdf-lib';
import { SignPdf } from '@signpdf/signpdf';
import { SUBFILTER_ETSI_CADES_DETACHED } from '@signpdf/utils';
import forge from 'node-forge';
import type { PDFDocument } from 'pdf-lib';
import { CadesSigner } from './cades-signer.ts';

/**
 * The portal's document seal: a key and certificate kept in the data folder (generated on
 * first use, self-signed, as the JWT key is; an operator replaces the two PEM files with their
 * own), the PAdES signature of a signed PDF and its check.
 */

export const SEAL_KEY_FILE = 'document-seal-key.pem';
export const SEAL_CERT_FILE = 'document-seal-cert.pem';

export type Seal = {
  keyPem: string;
  certPem: string;
  /** SHA-256 (hex) of the certificate's DER: how a sealed copy names the certificate. */
  certSha256: string;
};

export const sha256Hex = (data: Uint8Array | string) =>
  createHash('sha256').update(data).digest('hex');

function certDerSha256(cert: forge.pki.Certificate): string {
  const der = forge.asn1.toDer(forge.pki.certificateToAsn1(cert)).getBytes();
  return sha256Hex(Buffer.from(der, 'binary'));
}

/** A self-signed certificate for `key`, valid ten years, named after the portal. */
function selfSignedCert(keyPem: string, commonName: string): string {
  const key = forge.pki.privateKeyFromPem(keyPem) as forge.pki.rsa.PrivateKey;
  const cert = forge.pki.createCertificate();
  cert.publicKey = forge.pki.setRsaPublicKey(key.n, key.e);
  cert.serialNumber = `01${randomBytes(15).toString('hex')}`;
  cert.validity.notBefore = new Date(Date.now() - 60_000);
  cert.validity.notAfter = new Date(Date.now() + 10 * 365 * 24 * 3600 * 1000);
  const attrs = [
    { name: 'commonName', value: commonName },
    { name: 'organizationName', value: 'Document seal' },
  ];
  cert.setSubject(attrs);
  cert.setIssuer(attrs);
  cert.setExtensions([
    { name: 'basicConstraints', cA: false },
    { name: 'keyUsage', digitalSignature: true, nonRepudiation: true },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

const seals = new Map<string, Seal>();

/**
 * The seal of the data folder `dataDir`: its PEM key and certificate, made on first use
 * (mode 0600) and read once per process afterwards.
 */
export function loadSeal(dataDir: string, commonName: string): Seal {
  const cached = seals.get(dataDir);
  if (cached) return cached;
  const keyFile = path.join(dataDir, SEAL_KEY_FILE);
  const certFile = path.join(dataDir, SEAL_CERT_FILE);
  if (!existsSync(keyFile) || !existsSync(certFile)) {
    mkdirSync(dataDir, { recursive: true });
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keyPem = privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
    writeFileSync(keyFile, keyPem, { mode: 0o600 });
    writeFileSync(certFile, selfSignedCert(keyPem, commonName), { mode: 0o600 });
  }
  const keyPem = readFileSync(keyFile, 'utf8');
  const certPem = readFileSync(certFile, 'utf8');
  const cert = forge.pki.certificateFromPem(certPem);
  const seal: Seal = {
    keyPem,
    certPem,
    certSha256: certDerSha256(cert),
  };
  seals.set(dataDir, seal);
  return seal;
}

/**
 * Seals a finished PDF (its pages all drawn) with a PAdES signature (ETSI.CAdES.detached over
 * the whole file but the signature itself, the CMS of `cades-signer.ts` with the ESS
 * signing-certificate-v2 attribute): a PDF reader shows it as signed and unchanged.
 */
export async function sealPdf(
  pdfDoc: PDFDocument,
  seal: Seal,
  info: { reason: string; name: string; contactInfo: string; location: string; at: Date },
): Promise<Buffer> {
  pdflibAddPlaceholder({
    pdfDoc,
    reason: info.reason,
    name: info.name,
    contactInfo: info.contactInfo,
    location: info.location,
    signingTime: info.at,
    subFilter: SUBFILTER_ETSI_CADES_DETACHED,
    appName: 'Leads portal',
  });
  const unsigned = Buffer.from(await pdfDoc.save({ useObjectStreams: false }));
  return new SignPdf().sign(unsigned, new CadesSigner(seal.keyPem, seal.certPem), info.at);
}

/** What the check of a sealed PDF found. */
export type SealCheck =
  | { ok: true; certSha256: string; signedAt: Date | null }
  | { ok: false; reason: string };

const fail = (reason: string): SealCheck => ({ ok: false, reason });

/** The last signature's /ByteRange and the DER of its /Contents. */
function lastSignature(pdf: Buffer): { range: number[]; der: string } | null {
  const at = pdf.lastIndexOf('/ByteRange [');
  if (at < 0) return null;
  const m = /^\/ByteRange \[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(
    pdf.subarray(at, at + 120).toString('latin1'),
  );
  if (!m) return null;
  const range = m.slice(1, 5).map(Number);
  const [a, b, c] = range as [number, number, number, number];
  if (a !== 0 || b <= 0 || c <= b || c > pdf.length) return null;
  const hole = pdf.subarray(b, c).toString('latin1');
  if (!/^<[0-9a-fA-F]*>$/.test(hole)) return null;
  return { range, der: Buffer.from(hole.slice(1, -1), 'hex').toString('binary') };
}

/**
 * Checks a PDF's last signature: it covers every byte of the file but its own value, its
 * CMS (parsed and checked with node-forge) names the signed bytes' SHA-256 and is signed by
 * the certificate it carries, and that certificate's hash is one of `trusted`.
 */
export function checkSeal(pdf: Buffer, trusted: ReadonlySet<string>): SealCheck {
  const sig = lastSignature(pdf);
  if (!sig) return fail('This PDF carries no signature of this portal.');
  const [a, b, c, d] = sig.range as [number, number, number, number];
  if (c + d !== pdf.length) {
    return fail('This PDF was changed after it was sealed: bytes were added or removed.');
  }
  const signed = Buffer.concat([pdf.subarray(a, a + b), pdf.subarray(c, c + d)]);
  let p7: forge.pkcs7.PkcsSignedData;
  try {
    // The /Contents hole is zero-padded past the CMS: parse the first element only.
    const asn1 = (forge.asn1.fromDer as unknown as (d: string, o: object) => forge.asn1.Asn1)(
      sig.der,
      {
        parseAllBytes: false,
      },
    );
    p7 = forge.pkcs7.messageFromAsn1(asn1) as forge.pkcs7.PkcsSignedData;
  } catch {
    return fail('The signature in this PDF cannot be read.');
  }
  const raw = (p7 as unknown as { rawCapture: RawCapture }).rawCapture;
  const cert = p7.certificates[0];
  if (!cert || !raw?.authenticatedAttributes || !raw.signature) {
    return fail('The signature in this PDF cannot be read.');
  }
  if (forge.asn1.derToOid(raw.digestAlgorithm) !== forge.pki.oids.sha256) {
    return fail('The signature in this PDF uses a digest this portal does not make.');
  }
  const attrs = readAttributes(raw.authenticatedAttributes);
  const digest = sha256Hex(signed);
  if (attrs.messageDigest !== digest) {
    return fail('This PDF was changed after it was sealed: its content no longer matches.');
  }
  // The signature is over the DER of the attributes as a SET (RFC 5652 §5.4).
  const set = forge.asn1.create(
    forge.asn1.Class.UNIVERSAL,
    forge.asn1.Type.SET,
    true,
    raw.authenticatedAttributes,
  );
  const md = forge.md.sha256.create();
  md.update(forge.asn1.toDer(set).getBytes());
  let verified = false;
  try {
    verified = (cert.publicKey as forge.pki.rsa.PublicKey).verify(
      md.digest().bytes(),
      raw.signature,
    );
  } catch {
    verified = false;
  }
  if (!verified) return fail('The signature in this PDF does not match its content.');
  const certSha256 = certDerSha256(cert);
  if (!trusted.has(certSha256)) {
    return fail('This PDF is signed, but not by this portal.');
  }
  return { ok: true, certSha256, signedAt: attrs.signingTime };
}

type RawCapture = {
  authenticatedAttributes?: forge.asn1.Asn1[];
  signature?: string;
  digestAlgorithm: string;
};

/** The message digest (hex) and signing time of a SignerInfo's signed attributes. */
function readAttributes(attrs: forge.asn1.Asn1[]): {
  messageDigest: string | null;
  signingTime: Date | null;
} {
  let messageDigest: string | null = null;
  let signingTime: Date | null = null;
  for (const attr of attrs) {
    const [oid, values] = attr.value as forge.asn1.Asn1[];
    const type = forge.asn1.derToOid(oid!.value as string);
    const value = (values!.value as forge.asn1.Asn1[])[0]!;
    if (type === forge.pki.oids.messageDigest) {
      messageDigest = Buffer.from(value.value as string, 'binary').toString('hex');
    } else if (type === forge.pki.oids.signingTime) {
      signingTime = forge.asn1.utcTimeToDate(value.value as string);
    }
  }
  return { messageDigest, signingTime };
}
