import { msg } from './msg.js';

/** The purposes a family consents to, one by one (src/domain/consent.ts), in words. */
export const purposes = [
  ['internal_use', msg('athar’s own search')],
  ['partner_ngos', msg('partner human-rights organisations')],
  ['national_commission', msg('the national commission for the missing')],
  ['un_iimp', msg('the UN institution for the missing')],
  ['icmp_icrc', msg('the ICMP and the ICRC')],
  ['criminal_proceedings', msg('criminal proceedings')],
  ['contact_with_results', msg('contacting the family with news')],
  ['photo_comparison', msg('comparison with photographs')],
] as const;
