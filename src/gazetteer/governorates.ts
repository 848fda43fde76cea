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
  /** Spellings added since athar synth was written (it draws from `aliases` alone, so its data stays as it was). */
  laterAliases?: readonly string[];
}

export const governorates: readonly Governorate[] = [
  {
    id: 'damascus',
    iso: 'SY-DI',
    nameEn: 'Damascus',
    nameAr: 'دمشق',
    aliases: [
      'Dimashq',
      'Damas',
      'Damaskus',
      'Al-Sham',
      'Ash-Sham',
      'الشام',
      'مدينة دمشق',
      'Damascus City',
      'Şam',
      'Dımaşk',
    ],
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
      'Rif Dimachq',
      'Rif Dimachk',
      'Rif de Damas',
      'Damas Campagne',
      'Rif Dimaschq',
      'Umland von Damaskus',
      'Şam Kırsalı',
      'Rif Dımaşk',
    ],
    laterAliases: ['Rif Damas', 'Campagne de Damas', 'Damascus Countryside Governorate'],
  },
  {
    id: 'aleppo',
    iso: 'SY-HL',
    nameEn: 'Aleppo',
    nameAr: 'حلب',
    aliases: ['Halab', 'Alep', 'Haleb', 'Halep'],
  },
  { id: 'homs', iso: 'SY-HI', nameEn: 'Homs', nameAr: 'حمص', aliases: ['Hims', 'Hims Governorate', 'Humus'] },
  { id: 'hama', iso: 'SY-HM', nameEn: 'Hama', nameAr: 'حماة', aliases: ['Hamah', 'Hamat', 'Hamaa', 'حماه'] },
  {
    id: 'latakia',
    iso: 'SY-LA',
    nameEn: 'Latakia',
    nameAr: 'اللاذقية',
    aliases: [
      'Lattakia',
      'Al-Ladhiqiyah',
      'Ladhiqiyah',
      'Lattaquie',
      'Latakiya',
      'Lattakiya',
      'Lazkiye',
      'Latakia',
    ],
  },
  {
    id: 'tartus',
    iso: 'SY-TA',
    nameEn: 'Tartus',
    nameAr: 'طرطوس',
    aliases: ['Tartous', 'Tartousse', 'Tortosa', 'Tartus'],
  },
  {
    id: 'idlib',
    iso: 'SY-ID',
    nameEn: 'Idlib',
    nameAr: 'إدلب',
    aliases: ['Idleb', 'Edlib', 'Idlip', 'ادلب', 'İdlib'],
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
      'Deir ez-Zor',
      'Deir Ezzor',
      'Deir-ez-Zor',
      'Dayr az Zawr',
      'Deyrizor',
      'Deir es-Zor',
    ],
  },
  {
    id: 'raqqa',
    iso: 'SY-RA',
    nameEn: 'Raqqa',
    nameAr: 'الرقة',
    aliases: ['Ar-Raqqah', 'Raqqah', 'Rakka', 'Al-Raqqa', 'Raka', 'رقة', 'Er-Rakka'],
  },
  {
    id: 'hasakah',
    iso: 'SY-HA',
    nameEn: 'Al-Hasakah',
    nameAr: 'الحسكة',
    aliases: [
      'Hasakah',
      'Hasakeh',
      'Hassakeh',
      'Al-Hassakeh',
      'Hasaka',
      'Hassake',
      'حسكة',
      'Haseke',
      'Hassaké',
    ],
  },
  {
    id: 'daraa',
    iso: 'SY-DR',
    nameEn: 'Daraa',
    nameAr: 'درعا',
    aliases: ["Dar'a", 'Deraa', "Der'a", 'Dara', 'Daraa', 'Deraâ', 'Dera'],
  },
  {
    id: 'as-suwayda',
    iso: 'SY-SU',
    nameEn: 'As-Suwayda',
    nameAr: 'السويداء',
    aliases: ['Suwayda', 'Sweida', 'Suwaida', 'Soueida', 'Al-Suwayda', 'سويداء', 'Soueïda', 'Süveyda'],
  },
  {
    id: 'quneitra',
    iso: 'SY-QU',
    nameEn: 'Quneitra',
    nameAr: 'القنيطرة',
    aliases: ['Al-Qunaytirah', 'Qunaytirah', 'Kuneitra', 'Qunaitra', 'Quneitera', 'Qouneitra', 'Kuneytra'],
  },
];
