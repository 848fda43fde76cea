/**
 * Security branches and detention sites named in public reporting on Syria's detainees, with the spellings
 * lists use. `number` is the branch number used on detention records and on the Caesar photo cards.
 */
export type BranchKind =
  | 'security_branch'
  | 'prison'
  | 'military_police'
  | 'military_hospital'
  | 'hospital'
  | 'directorate'
  | 'agency';
export type Agency =
  | 'military_intelligence'
  | 'air_force_intelligence'
  | 'general_intelligence'
  | 'political_security'
  | 'military_police'
  | 'military_prisons'
  | 'military_medical_services';

export interface Branch {
  id: string;
  number: number | null;
  kind: BranchKind;
  agency: Agency;
  nameEn: string;
  nameAr: string;
  governorate: string;
  aliases: readonly string[];
  /** The unit above it (branch → directorate → agency), by id. */
  parent?: string;
}

export const branches: readonly Branch[] = [
  {
    id: 'branch-235',
    parent: 'agency-military-intelligence',
    number: 235,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Palestine Branch (Branch 235)',
    nameAr: 'فرع فلسطين (الفرع 235)',
    governorate: 'damascus',
    aliases: [
      'Palestine Branch',
      'Branch 235',
      'Palestine Branch 235',
      'Falastin Branch',
      'Far Falastin',
      "Far' Filastin",
      'فرع فلسطين',
      'الفرع 235',
      'فرع 235',
      'فرع فلسطين 235',
      'شعبة المخابرات العسكرية فرع فلسطين',
    ],
  },
  {
    id: 'branch-215',
    parent: 'agency-military-intelligence',
    number: 215,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Raids Branch (Branch 215)',
    nameAr: 'فرع المداهمة (الفرع 215)',
    governorate: 'damascus',
    aliases: [
      'Branch 215',
      'Raids Branch',
      'Raid Branch',
      'Raids and Storming Branch',
      'Commando Branch 215',
      'الفرع 215',
      'فرع 215',
      'فرع المداهمة',
      'سرية المداهمة',
      'فرع السرية 215',
    ],
  },
  {
    id: 'branch-227',
    parent: 'agency-military-intelligence',
    number: 227,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Damascus Region Branch (Branch 227)',
    nameAr: 'فرع المنطقة (الفرع 227)',
    governorate: 'damascus',
    aliases: [
      'Branch 227',
      'Region Branch',
      'Area Branch',
      'Damascus Region Branch',
      'Damascus Area Branch',
      'الفرع 227',
      'فرع 227',
      'فرع المنطقة',
      'فرع منطقة دمشق',
    ],
  },
  {
    id: 'branch-248',
    parent: 'agency-military-intelligence',
    number: 248,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Military Investigation Branch (Branch 248)',
    nameAr: 'فرع التحقيق العسكري (الفرع 248)',
    governorate: 'damascus',
    aliases: [
      'Branch 248',
      'Military Investigation Branch',
      'Military Interrogation Branch',
      'الفرع 248',
      'فرع 248',
      'فرع التحقيق العسكري',
    ],
  },
  {
    id: 'branch-251',
    parent: 'agency-general-intelligence',
    number: 251,
    kind: 'security_branch',
    agency: 'general_intelligence',
    nameEn: 'Al-Khatib Branch (Branch 251)',
    nameAr: 'فرع الخطيب (الفرع 251)',
    governorate: 'damascus',
    aliases: [
      'Branch 251',
      'Al-Khatib Branch',
      'Khatib Branch',
      'Internal Branch',
      'Interior Branch',
      'الفرع 251',
      'فرع 251',
      'فرع الخطيب',
      'الفرع الداخلي',
    ],
  },
  {
    id: 'branch-261',
    parent: 'agency-military-intelligence',
    number: 261,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Homs Military Intelligence Branch (Branch 261)',
    nameAr: 'فرع الأمن العسكري في حمص (الفرع 261)',
    governorate: 'homs',
    aliases: [
      'Branch 261',
      'Homs Military Security Branch',
      'الفرع 261',
      'فرع 261',
      'فرع الأمن العسكري بحمص',
    ],
  },
  {
    id: 'branch-290',
    parent: 'agency-military-intelligence',
    number: 290,
    kind: 'security_branch',
    agency: 'military_intelligence',
    nameEn: 'Aleppo Military Intelligence Branch (Branch 290)',
    nameAr: 'فرع الأمن العسكري في حلب (الفرع 290)',
    governorate: 'aleppo',
    aliases: [
      'Branch 290',
      'Aleppo Military Security Branch',
      'الفرع 290',
      'فرع 290',
      'فرع الأمن العسكري بحلب',
    ],
  },
  {
    id: 'branch-285',
    parent: 'agency-general-intelligence',
    number: 285,
    kind: 'security_branch',
    agency: 'general_intelligence',
    nameEn: 'General Intelligence Branch 285',
    nameAr: 'فرع أمن الدولة (الفرع 285)',
    governorate: 'damascus',
    aliases: ['Branch 285', 'State Security Branch 285', 'الفرع 285', 'فرع 285'],
  },
  {
    id: 'afi-mezzeh',
    parent: 'agency-air-force-intelligence',
    number: null,
    kind: 'security_branch',
    agency: 'air_force_intelligence',
    nameEn: 'Air Force Intelligence Investigation Branch, Mezzeh Airport',
    nameAr: 'فرع التحقيق في المخابرات الجوية، مطار المزة',
    governorate: 'damascus',
    aliases: [
      'Air Force Intelligence, Mezzeh',
      'Air Force Intelligence Mezzeh',
      'Mezzeh Airport',
      'Mezzeh Military Airport',
      'Air Force Intelligence Investigation Branch',
      'AFI Mezzeh',
      'المخابرات الجوية',
      'المخابرات الجوية في المزة',
      'مطار المزة',
      'مطار المزة العسكري',
      'فرع التحقيق في المخابرات الجوية',
    ],
  },
  {
    id: 'saydnaya',
    number: null,
    kind: 'prison',
    agency: 'military_prisons',
    nameEn: 'Saydnaya Military Prison',
    nameAr: 'سجن صيدنايا العسكري',
    governorate: 'rif-dimashq',
    aliases: [
      'Saydnaya',
      'Sednaya',
      'Sednaya Prison',
      'Saidnaya',
      'Saydnaya Prison',
      'صيدنايا',
      'سجن صيدنايا',
      'سجن صيدنايا العسكري',
    ],
  },
  {
    id: 'mp-qaboun',
    number: null,
    kind: 'military_police',
    agency: 'military_police',
    nameEn: 'Military Police, Qaboun',
    nameAr: 'الشرطة العسكرية في القابون',
    governorate: 'damascus',
    aliases: [
      'Military Police Qaboun',
      'Qaboun Military Police',
      'Military Police in Qaboun',
      'Military Police Headquarters Qaboun',
      // Lists name the Military Police's Damascus headquarters by the service alone, in either script.
      'Military Police',
      'الشرطة العسكرية',
      'الشرطة العسكرية بالقابون',
      'الشرطة العسكرية القابون',
      'القابون',
    ],
  },
  {
    id: 'hospital-601',
    number: null,
    kind: 'military_hospital',
    agency: 'military_medical_services',
    nameEn: 'Military Hospital 601, Mezzeh',
    nameAr: 'مشفى المزة العسكري 601',
    governorate: 'damascus',
    aliases: [
      'Military Hospital 601',
      'Hospital 601',
      'Mezzeh Military Hospital',
      '601 Military Hospital',
      'مشفى 601',
      'المشفى 601',
      'مستشفى 601',
      'مشفى المزة العسكري',
      'مستشفى المزة العسكري',
    ],
  },
  {
    id: 'tishreen-hospital',
    number: null,
    kind: 'military_hospital',
    agency: 'military_medical_services',
    nameEn: 'Tishreen Military Hospital',
    nameAr: 'مشفى تشرين العسكري',
    governorate: 'damascus',
    aliases: [
      'Tishreen Hospital',
      'Tishrin Military Hospital',
      'Tichrine Military Hospital',
      'مشفى تشرين',
      'مستشفى تشرين العسكري',
      'مشفى تشرين العسكري',
    ],
  },
  // The four intelligence agencies: lists often name only the agency ("فرع أمن الدولة", "Air Force Intelligence").
  {
    id: 'agency-military-intelligence',
    number: null,
    kind: 'agency',
    agency: 'military_intelligence',
    nameEn: 'Military Intelligence Directorate',
    nameAr: 'شعبة المخابرات العسكرية',
    governorate: 'damascus',
    aliases: [
      'Military Intelligence',
      'Military Security',
      'المخابرات العسكرية',
      'الأمن العسكري',
      'فرع الأمن العسكري',
      'شعبة الاستخبارات العسكرية',
    ],
  },
  {
    id: 'agency-air-force-intelligence',
    number: null,
    kind: 'agency',
    agency: 'air_force_intelligence',
    nameEn: 'Air Force Intelligence Directorate',
    nameAr: 'إدارة المخابرات الجوية',
    governorate: 'damascus',
    aliases: [
      'Air Force Intelligence',
      'Air Force Intelligence Branch',
      'Air Intelligence',
      'المخابرات الجوية',
      'فرع المخابرات الجوية',
      'الاستخبارات الجوية',
    ],
  },
  {
    id: 'agency-general-intelligence',
    number: null,
    kind: 'agency',
    agency: 'general_intelligence',
    nameEn: 'General Intelligence Directorate (State Security)',
    nameAr: 'إدارة المخابرات العامة (أمن الدولة)',
    governorate: 'damascus',
    aliases: [
      'General Intelligence',
      'State Security',
      'State Security Branch',
      'المخابرات العامة',
      'أمن الدولة',
      'فرع أمن الدولة',
      'إدارة أمن الدولة',
    ],
  },
  {
    id: 'agency-political-security',
    number: null,
    kind: 'agency',
    agency: 'political_security',
    nameEn: 'Political Security Directorate',
    nameAr: 'إدارة الأمن السياسي',
    governorate: 'damascus',
    aliases: [
      'Political Security',
      'Political Security Branch',
      'Political Security Division',
      'الأمن السياسي',
      'فرع الأمن السياسي',
      'شعبة الأمن السياسي',
    ],
  },
];
