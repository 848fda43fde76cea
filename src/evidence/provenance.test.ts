import { expect, it } from 'vitest';
import { metadataSummary } from './provenance.js';

it('keeps the capture date and camera model, and nothing that names or locates a person', () => {
  // Synthetic metadata, shaped as exifr's segments.
  const metadata = {
    ifd0: {
      Make: 'athar-test',
      Model: 'Synthetic 1',
      Artist: 'A Witness',
      ModifyDate: '2019:01:02 03:04:05',
    },
    exif: { DateTimeOriginal: '2018:05:06 07:08:09', BodySerialNumber: 'SN123', CameraOwnerName: 'Owner' },
    gps: { latitude: 33.5, longitude: 36.3 },
    iptc: { Byline: 'A Witness' },
  };
  const summary = metadataSummary(metadata);
  expect(summary).toEqual({
    capturedAt: '2018:05:06 07:08:09',
    cameraMake: 'athar-test',
    cameraModel: 'Synthetic 1',
  });
  expect(JSON.stringify(summary)).not.toMatch(/Witness|SN123|Owner|33\.5/);
  expect(metadataSummary(null)).toBeNull();
  expect(metadataSummary({ ihdr: { ImageWidth: 3 } })).toEqual({
    capturedAt: null,
    cameraMake: null,
    cameraModel: null,
  });
});
