import { createHash, createPrivateKey, sign } from 'node:crypto';
import { Signer } from '@signpdf/utils';
import forge from 'node-forge';

/**
 * The CMS of a PAdES baseline signature (ETSI EN 319 142-1, B-B level): a detached SignedData
 * whose signed attributes are content type, signing time, message digest and the ESS
 * signing-certificate-v2 naming the signer's certificate by its SHA-256 (which @signpdf's
 * P12Signer leaves out). Built with node-forge's ASN.1, signed with node:crypto (RSA, SHA-256).
 */

const { asn1 } = forge;
const U = asn1.Class.UNIVERSAL;
const T = asn1.Type;

const oid = (id: string) => asn1.create(U, T.OID, false, asn1.oidToDer(id).getBytes());
const seq = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SEQUENCE, true, items);
const set = (items: forge.asn1.Asn1[]) => asn1.create(U, T.SET, true, items);
const octets = (bytes: Buffer) => asn1.create(U, T.OCTETSTRING, false, bytes.toString('binary'));
const int = (n: number) => asn1.create(U, T.INTEGER, false, String.fromCharCode(n));
const attribute = (type: string, value: forge.asn1.Asn1) => seq([oid(type), set([value])]);
const der = (a: forge.asn1.Asn1) => Buffer.from(asn1.toDer(a).getBytes(), 'binary');

const OIDS = {
  data: forge.pki.oids.data!,
  signedData: forge.pki.oids.signedData!,
  contentType: forge.pki.oids.contentType!,
  messageDigest: forge.pki.oids.messageDigest!,
  signingTime: forge.pki.oids.signingTime!,
  sha256: forge.pki.oids.sha256!,
  rsaEncryption: forge.pki.oids.rsaEncryption!,
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
};

const algorithm = (id: string) => seq([oid(id), asn1.create(U, T.NULL, false, '')]);

export class CadesSigner extends Signer {
  constructor(
    private keyPem: string,
    private certPem: string,
  ) {
    super();
  }

  override async sign(pdfBuffer: Buffer, signingTime?: Date): Promise<Buffer> {
    const cert = forge.pki.certificateFromPem(this.certPem);
    const certAsn1 = forge.pki.certificateToAsn1(cert);
    const certDer = der(certAsn1);
    const at = signingTime ?? new Date();
    const attrs = [
      attribute(OIDS.contentType, oid(OIDS.data)),
      attribute(OIDS.signingTime, asn1.create(U, T.UTCTIME, false, asn1.dateToUtcTime(at))),
      attribute(OIDS.messageDigest, octets(createHash('sha256').update(pdfBuffer).digest())),
      // SigningCertificateV2 { certs SEQUENCE OF ESSCertIDv2 { certHash } } (SHA-256 by default).
      attribute(
        OIDS.signingCertificateV2,
        seq([seq([seq([octets(createHash('sha256').update(certDer).digest())])])]),
      ),
    ];
    // The signature is over the DER of the attributes as a SET; they are stored [0] IMPLICIT.
    const signature = sign('sha256', der(set(attrs)), createPrivateKey(this.keyPem));
    // The serial as the certificate encodes it (TBSCertificate: [0] version, then serial).
    const tbs = (certAsn1.value as forge.asn1.Asn1[])[0]!.value as forge.asn1.Asn1[];
    const serial = tbs.find((part) => part.tagClass === U && part.type === T.INTEGER)!;
    const issuerAndSerial = seq([forge.pki.distinguishedNameToAsn1(cert.issuer), serial]);
    const signerInfo = seq([
      int(1),
      issuerAndSerial,
      algorithm(OIDS.sha256),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, attrs),
      algorithm(OIDS.rsaEncryption),
      octets(signature),
    ]);
    const signedData = seq([
      int(1),
      set([algorithm(OIDS.sha256)]),
      seq([oid(OIDS.data)]),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [certAsn1]),
      set([signerInfo]),
    ]);
    const contentInfo = seq([
      oid(OIDS.signedData),
      asn1.create(asn1.Class.CONTEXT_SPECIFIC, 0, true, [signedData]),
    ]);
    return der(contentInfo);
  }
}
