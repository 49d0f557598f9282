import type { UploadImageType } from '@portolan/contract';

/**
 * The image type of some bytes, read from their signature alone: the file name and the declared
 * type are never trusted. Anything that is not PNG, JPEG, GIF or WebP (SVG included) is null.
 */
export function sniffImageType(bytes: Uint8Array): UploadImageType | null {
  const starts = (signature: readonly number[], offset = 0) =>
    bytes.length >= offset + signature.length && signature.every((b, i) => bytes[offset + i] === b);
  const ascii = (s: string) => [...s].map((c) => c.charCodeAt(0));

  if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (starts([0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (starts(ascii('GIF87a')) || starts(ascii('GIF89a'))) return 'image/gif';
  if (starts(ascii('RIFF')) && starts(ascii('WEBP'), 8)) return 'image/webp';
  return null;
}

export const IMAGE_EXTENSIONS: Record<UploadImageType, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
