import { describe, expect, it } from 'vitest';
import { checkUpload, extensionOf, uploadRules } from './uploads.ts';

const file = (name: string, size = 10) => ({ name, size });

describe('checkUpload', () => {
  const rule = uploadRules.compliance;

  it('accepts 1 to 3 recordings and one document', () => {
    expect(checkUpload(rule, { media: [file('a.mp3')], document: [file('q.pdf')] })).toBeNull();
    expect(
      checkUpload(rule, {
        media: [file('a.mp3'), file('b.MP4'), file('c.mp3')],
        document: [file('q.docx')],
      }),
    ).toBeNull();
  });

  it('names a missing field before too many files', () => {
    const media = [file('a.mp3'), file('b.mp3'), file('c.mp3'), file('d.mp3')];
    expect(checkUpload(rule, { media, document: [] })).toEqual({
      code: 'missing_files',
      field: 'document',
    });
    expect(checkUpload(rule, { media, document: [file('q.pdf')] })).toEqual({
      code: 'too_many_files',
      field: 'media',
    });
  });

  it('refuses a wrong type and an oversized logo, naming the file', () => {
    expect(checkUpload(rule, { media: [file('a.wav')], document: [file('q.pdf')] })).toEqual({
      code: 'unsupported_file_type',
      field: 'media',
      fileName: 'a.wav',
    });
    const big = file('logo.png', uploadRules.logo.file.maxBytes + 1);
    expect(checkUpload(uploadRules.logo, { file: [big] })?.code).toBe('file_too_large');
    expect(checkUpload(uploadRules.io, { file: [file('io.jpeg')] })).toBeNull();
  });

  it('reads the extension in lower case, empty without one', () => {
    expect(extensionOf('Call.Recording.MP3')).toBe('mp3');
    expect(extensionOf('README')).toBe('');
  });
});
