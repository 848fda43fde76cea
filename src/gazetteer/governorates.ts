/** The 14 governorates of Syria, with the spellings lists commonly use for them. Public geography. */
export interface Governorate {
  /** Stable slug used as the database key. */
  id: string;
  /** ISO 3166-2 code. */
  iso: string;
  nameEn: string;
  nameAr: string;
  /** Other spellings, Arabic and Latin (the two names above are aliases too). */
  aliases: readonly string[];
}

export const governorates: readonly Governorate[] = [
  {
    id: 'damascus',
    iso: 'SY-DI',
    nameEn: 'Damascus',
    nameAr: 'دمشق',
    aliases: ['Dimashq', 'Damas', 'Damaskus', 'Al-Sham', 'Ash-Sham', 'الشام', 'مدينة دمشق', 'Damascus City'],
  },
  {
    id: 'rif-dimashq',
    iso: 'SY-RD',
    nameEn: 'Rif Dimashq',
    nameAr: 'ريف دمشق',
    aliases: [
      'Rural Damascus',
      'Damascus Countryside',
      'Damascus Suburbs',
      'Reef Dimashq',
      'Rif Damascus',
      'Reef Damascus',
      'Rif Dimashk',
      'Rif-Dimashq',
    ],
  },
  { id: 'aleppo', iso: 'SY-HL', nameEn: 'Aleppo', nameAr: 'حلب', aliases: ['Halab', 'Alep', 'Haleb'] },
  { id: 'homs', iso: 'SY-HI', nameEn: 'Homs', nameAr: 'حمص', aliases: ['Hims', 'Hims Governorate'] },
  { id: 'hama', iso: 'SY-HM', nameEn: 'Hama', nameAr: 'حماة', aliases: ['Hamah', 'Hamat', 'Hamaa', 'حماه'] },
  {
    id: 'latakia',
    iso: 'SY-LA',
    nameEn: 'Latakia',
    nameAr: 'اللاذقية',
    aliases: ['Lattakia', 'Al-Ladhiqiyah', 'Ladhiqiyah', 'Lattaquie', 'Latakiya', 'Lattakiya'],
  },
  {
    id: 'tartus',
    iso: 'SY-TA',
    nameEn: 'Tartus',
    nameAr: 'طرطوس',
    aliases: ['Tartous', 'Tartousse', 'Tortosa'],
  },
  {
    id: 'idlib',
    iso: 'SY-ID',
    nameEn: 'Idlib',
    nameAr: 'إدلب',
    aliases: ['Idleb', 'Edlib', 'Idlip', 'ادلب'],
  },
  {
    id: 'deir-ez-zor',
    iso: 'SY-DY',
    nameEn: 'Deir ez-Zor',
    nameAr: 'دير الزور',
    aliases: [
      'Deir Ezzor',
      'Deir al-Zour',
      'Dayr az-Zawr',
      'Deir el-Zor',
      'Deir Alzour',
      'Deir Azzour',
      'Deir Ez Zor',
    ],
  },
  {
    id: 'raqqa',
    iso: 'SY-RA',
    nameEn: 'Raqqa',
    nameAr: 'الرقة',
    aliases: ['Ar-Raqqah', 'Raqqah', 'Rakka', 'Al-Raqqa', 'Raka', 'رقة'],
  },
  {
    id: 'hasakah',
    iso: 'SY-HA',
    nameEn: 'Al-Hasakah',
    nameAr: 'الحسكة',
    aliases: ['Hasakah', 'Hasakeh', 'Hassakeh', 'Al-Hassakeh', 'Hasaka', 'Hassake', 'حسكة'],
  },
  {
    id: 'daraa',
    iso: 'SY-DR',
    nameEn: 'Daraa',
    nameAr: 'درعا',
    aliases: ["Dar'a", 'Deraa', "Der'a", 'Dara', 'Daraa'],
  },
  {
    id: 'as-suwayda',
    iso: 'SY-SU',
    nameEn: 'As-Suwayda',
    nameAr: 'السويداء',
    aliases: ['Suwayda', 'Sweida', 'Suwaida', 'Soueida', 'Al-Suwayda', 'Sweida', 'سويداء'],
  },
  {
    id: 'quneitra',
    iso: 'SY-QU',
    nameEn: 'Quneitra',
    nameAr: 'القنيطرة',
    aliases: ['Al-Qunaytirah', 'Qunaytirah', 'Kuneitra', 'Qunaitra', 'Quneitera'],
  },
];
