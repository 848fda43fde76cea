import { z } from 'zod';
import { consentFormKeys } from '../../domain/consent.js';

/**
 * What a family (or a liaison on its behalf) sends to file a missing-person report: the API contract's body of
 * `POST /api/public/reports`, as zod schemas so that the route validates it and every error names its field.
 * Free text is kept as given (Arabic or English); only lengths are bounded.
 */

const text = (max: number) =>
  z.string().trim().min(1, 'must not be empty').max(max, `at most ${max} characters`);

/** An ISO date with the precision the family knows: YYYY, YYYY-MM or YYYY-MM-DD. */
export const partialDate = z
  .string()
  .trim()
  .regex(/^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/, 'must be YYYY, YYYY-MM or YYYY-MM-DD')
  .refine((v) => v.length < 10 || !Number.isNaN(Date.parse(`${v}T00:00:00Z`)), 'is not a calendar date');

export const personInput = z
  .object({
    fullName: text(300).optional(),
    firstName: text(100).optional(),
    fatherName: text(100).optional(),
    grandfatherName: text(100).optional(),
    familyName: text(100).optional(),
    motherName: text(200).optional(),
    sex: z.enum(['male', 'female']).optional(),
    birthDate: partialDate.optional(),
    governorate: text(100).optional(),
    placeOfOrigin: text(200).optional(),
  })
  .refine((p) => p.fullName !== undefined || p.firstName !== undefined, {
    message: "give the person's full name or first name",
    path: ['fullName'],
  });

export const arrestInput = z.object({
  date: partialDate.optional(),
  place: text(300).optional(),
  branch: text(200).optional(),
});

/** Each ante-mortem answer may also be 'unknown' (the family does not know) or 'not_asked'. */
export const unknownOrNotAsked = z.enum(['unknown', 'not_asked']);
const answer = <T extends z.ZodType>(schema: T) => z.union([unknownOrNotAsked, schema]);

export const skinMarkingKinds = ['scar', 'tattoo', 'mole', 'birthmark'] as const;

/** The ante-mortem profile of design.md: what families know and forensic comparison needs. */
export const antemortemShape = {
  heightCm: answer(z.number().min(40, 'at least 40 cm').max(250, 'at most 250 cm')),
  weightKg: answer(z.number().min(10, 'at least 10 kg').max(300, 'at most 300 kg')),
  physique: answer(text(500)),
  hair: answer(text(500)),
  facialHair: answer(text(500)),
  eyeColour: answer(text(200)),
  handedness: answer(z.enum(['left', 'right', 'both'])),
  glasses: answer(z.enum(['yes', 'no', 'sometimes'])),
  skinMarkings: answer(
    z
      .array(
        z.object({
          kind: z.enum(skinMarkingKinds),
          location: text(200).optional(),
          description: text(1000).optional(),
        }),
      )
      .max(50, 'at most 50 markings'),
  ),
  distinctiveFeatures: answer(text(2000)),
  medicalHistory: answer(text(4000)),
  dentalHistory: answer(text(4000)),
  personalItems: answer(text(2000)),
  clothingLastSeen: answer(text(2000)),
} as const;
export const antemortemFields = Object.keys(antemortemShape) as (keyof typeof antemortemShape)[];

export const antemortemInput = z.object(
  Object.fromEntries(antemortemFields.map((k) => [k, antemortemShape[k].optional()])) as {
    [K in keyof typeof antemortemShape]: z.ZodOptional<(typeof antemortemShape)[K]>;
  },
);

export type AntemortemInput = z.infer<typeof antemortemInput>;
/** A stored profile: every field present; what the form did not carry is 'not_asked'. */
export type AntemortemProfile = { [K in keyof AntemortemInput]-?: Exclude<AntemortemInput[K], undefined> };

export function completeProfile(input: AntemortemInput | undefined): AntemortemProfile {
  return Object.fromEntries(antemortemFields.map((k) => [k, input?.[k] ?? 'not_asked'])) as AntemortemProfile;
}

export const consentInput = z.object(
  Object.fromEntries(Object.keys(consentFormKeys).map((k) => [k, z.boolean().default(false)])) as {
    [K in keyof typeof consentFormKeys]: z.ZodDefault<z.ZodBoolean>;
  },
);

export const contactInput = z.object({
  name: text(200).optional(),
  phone: z
    .string()
    .trim()
    .regex(/^\+?[0-9][0-9 ()\-./]{3,38}$/, 'must be a phone number: digits, spaces, + ( ) - . /')
    .optional(),
  email: z.email('must be an email address').max(254).optional(),
  relation: text(100).optional(),
});

export const reportInput = z.object({
  person: personInput,
  arrest: arrestInput.optional(),
  anteMortem: antemortemInput.optional(),
  consent: consentInput,
  contact: contactInput,
  language: z.enum(['ar', 'en']),
});

export type ReportInput = z.infer<typeof reportInput>;
export type ContactInput = z.infer<typeof contactInput>;
