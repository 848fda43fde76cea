import { describe, expect, it } from 'vitest';
import { deriveCaseStatus } from './case-status.js';

const at = (kind: string, assertedAt: string) => ({ kind, assertedAt });

describe('deriving a case status from claims', () => {
  it('is reported_missing when nothing is claimed, or only that information is sought', () => {
    expect(deriveCaseStatus([])).toBe('reported_missing');
    expect(deriveCaseStatus([at('information_sought', '2013-01-01')])).toBe('reported_missing');
  });

  it('follows the latest soft claim', () => {
    expect(
      deriveCaseStatus([at('believed_missing', '2013-01-01'), at('seen_in_detention', '2014-05-01')]),
    ).toBe('believed_alive');
    expect(
      deriveCaseStatus([
        at('seen_in_detention', '2014-05-01'),
        at('death_reported_by_civil_registry', '2018-07-01'),
      ]),
    ).toBe('believed_dead_unconfirmed');
    expect(deriveCaseStatus([at('believed_dead', '2015-01-01'), at('believed_alive', '2016-01-01')])).toBe(
      'believed_alive',
    );
  });

  it('ranks a death claim above a sighting made at the same time', () => {
    expect(deriveCaseStatus([at('believed_alive', '2015-01-01'), at('believed_dead', '2015-01-01')])).toBe(
      'believed_dead_unconfirmed',
    );
  });

  it('needs DNA or a confirmed identification for identified_deceased; a photo recognition alone is unconfirmed', () => {
    expect(deriveCaseStatus([at('family_recognition_in_photo', '2015-01-01')])).toBe(
      'believed_dead_unconfirmed',
    );
    expect(
      deriveCaseStatus([at('identified_by_dna', '2020-01-01'), at('believed_alive', '2021-01-01')]),
    ).toBe('identified_deceased');
    expect(deriveCaseStatus([at('believed_alive', '2021-01-01')], { confirmedIdentification: true })).toBe(
      'identified_deceased',
    );
  });

  it('lets the latest settled outcome win and keeps remains unidentified until then', () => {
    expect(deriveCaseStatus([at('remains_found', '2014-01-01')])).toBe('remains_unidentified');
    expect(deriveCaseStatus([at('remains_found', '2014-01-01'), at('identified_by_dna', '2019-01-01')])).toBe(
      'identified_deceased',
    );
    expect(
      deriveCaseStatus([at('death_certificate_found', '2016-01-01'), at('found_alive', '2017-01-01')]),
    ).toBe('found_alive');
  });

  it('keeps a closed duplicate closed and ignores unknown kinds', () => {
    expect(deriveCaseStatus([at('found_alive', '2017-01-01'), at('closed_duplicate', '2016-01-01')])).toBe(
      'closed_duplicate',
    );
    expect(deriveCaseStatus([at('something_new', '2030-01-01')])).toBe('reported_missing');
  });
});
