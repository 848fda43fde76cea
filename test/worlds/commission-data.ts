/**
 * Name and place material of world C (commission.ts), written for it alone: Syrian given names (male, female) in
 * rough order of frequency, family names (a hand list of common ones, many with the article, then a long tail built
 * from consonant roots and word patterns), towns with their governorates, and the branches and prisons with their
 * aliases in both scripts. Every name here is a name, not a person; the records built from them are SYNTHETIC.
 *
 * A name is written twice: in Arabic, as a form would hold it, and as a "key", a vocalised transcription from
 * which the Latin habits are derived letter by letter (commission.ts, `romanize`). Key letters: a i u short vowels;
 * A I U long; O ة (read a / ah / eh); Y ى (read a); H ح; x خ; c ش; C ث; V ذ; S ص; D ض; T ط; Z ظ; E ع; g غ; ' ء;
 * the other Latin letters are themselves; "al-" is the article. A third, optional column gives Latin spellings
 * that habit alone would not produce (Mohammed, Hussein, the abbreviation Mhd).
 */

export interface NameEntry {
  ar: string;
  key: string;
  alt: readonly string[];
}

function table(text: string): NameEntry[] {
  const out: NameEntry[] = [];
  const seen = new Set<string>();
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const [ar, key, alt] = t.split('|');
    if (!ar || !key || seen.has(ar)) continue;
    seen.add(ar);
    out.push({ ar, key, alt: alt ? alt.split(',') : [] });
  }
  return out;
}

/** Male given names, most frequent first. */
export const maleNames = table(`
محمد|muHammad|Mohammed,Mohamed,Muhammed,Mhd,Mohamad,Mouhamad
أحمد|'aHmad|Ahmed,Ahmad
علي|EalI|Ali,Aly
عبد الرحمن|Eabd al-raHmAn|
عمر|Eumar|Omar,Umar
خالد|xAlid|Khaled,Khalid
مصطفى|muSTafY|Mustafa,Moustafa,Mostafa,Mustapha,Moustapha
محمود|maHmUd|Mahmoud,Mahmud
حسين|Husayn|Hussein,Houssein,Hussain,Hussien
حسن|Hasan|Hassan
إبراهيم|'ibrAhIm|Ibrahim,Ebrahim
يوسف|yUsuf|Yousef,Youssef,Yousif,Yusuf
عبد الله|Eabd allAh|Abdullah,Abdallah,Abd Allah,Abdulla,Abdalla,Abdellah
عبد الكريم|Eabd al-karIm|
عبد السلام|Eabd al-salAm|
عبد القادر|Eabd al-qAdir|Abdulkader,Abdelkader,Abdul Qadir
سعيد|saEId|Said,Saeed,Saïd
فراس|firAs|
عبد الرزاق|Eabd al-razzAq|
خليل|xalIl|
ياسر|yAsir|Yaser,Yasser
عبد العزيز|Eabd al-EazIz|
سامر|sAmir|Samer
حمزة|HamzO|Hamza,Hamzeh,Hamzah
وليد|walId|Walid,Waleed
مازن|mAzin|Mazen
بلال|bilAl|
أنس|'anas|Anas
عمار|EammAr|Ammar
جهاد|jihAd|Jihad,Jehad
رامي|rAmI|
ماهر|mAhir|Maher
فادي|fAdI|Fadi
عبد الحميد|Eabd al-HamId|
أيمن|'ayman|Ayman,Aiman
محمد علي|muHammad EalI|
زياد|ziyAd|Ziad,Ziyad
طارق|TAriq|Tarek,Tariq
عدنان|EadnAn|
عماد|EimAd|Imad,Emad
نزار|nizAr|
هيثم|hayCam|Haitham,Haysam
باسل|bAsil|Basel
سليمان|sulaymAn|Suleiman,Sleiman,Soliman
عيسى|EIsY|Issa,Eisa
موسى|mUsY|Moussa,Musa
وائل|wA'il|Wael
معاذ|muEAV|Moaz,Muaz
أسامة|'usAmO|Osama,Usama,Oussama
عبد الناصر|Eabd al-nASir|
يحيى|yaHyY|Yahya,Yehia
قاسم|qAsim|Kassem,Qasem
صالح|SAliH|Saleh,Salih
بشار|baccAr|Bashar,Bachar
رضوان|riDwAn|Radwan,Ridwan
عبد الباسط|Eabd al-bAsiT|
إسماعيل|'ismAEIl|Ismail,Ismael
غسان|gassAn|Ghassan
نور الدين|nUr al-dIn|Noureddine,Nour Aldin,Nureddin
حسام|HusAm|Hussam,Houssam
عثمان|EuCmAn|Othman,Osman,Uthman
مهند|muhannad|Mohannad
عبد الرحيم|Eabd al-raHIm|
منذر|munVir|Munzer,Monzer
إياد|'iyAd|Eyad,Iyad
فايز|fAyiz|Fayez
نبيل|nabIl|
ناصر|nASir|Nasser,Naser
جمال|jamAl|Gamal,Djamal
رياض|riyAD|Riad,Riyad
حازم|HAzim|Hazem
زكريا|zakariyyA|Zakaria,Zakariya
يونس|yUnus|Younes,Younis,Yunus
عبد الغني|Eabd al-ganI|
عبد اللطيف|Eabd al-laTIf|
عبد المجيد|Eabd al-majId|
عبد الهادي|Eabd al-hAdI|
عبد الوهاب|Eabd al-wahhAb|
عبد الجليل|Eabd al-jalIl|
عبد المنعم|Eabd al-munEim|
عبد الحكيم|Eabd al-HakIm|
عبد الفتاح|Eabd al-fattAH|
سعد|saEd|Saad,Saed
سامي|sAmI|Sami,Samy
مالك|mAlik|Malek
مأمون|ma'mUn|Mamoun,Maamoun
مجد|majd|
محسن|muHsin|Mohsen
مراد|murAd|Mourad
مروان|marwAn|
منصور|manSUr|Mansour
مؤيد|mu'ayyad|Moayad,Muayad
نادر|nAdir|Nader
عز الدين|Eizz al-dIn|Ezzeddine,Ezzedin,Izz al-Din,Ezz Aldin
صلاح الدين|SalAH al-dIn|Salaheddine,Salahuddin,Salah Aldin
هشام|hicAm|Hisham,Hicham
وسيم|wasIm|Wassim,Waseem
أكرم|'akram|
أمجد|'amjad|
أنور|'anwar|Anwar,Anouar
ثائر|CA'ir|Thaer,Saer
جميل|jamIl|
جعفر|jaEfar|Jaafar
حاتم|HAtim|Hatem
حافظ|HAfiZ|Hafez
حكم|Hakam|
رامز|rAmiz|Ramez
ربيع|rabIE|Rabih,Rabie
رفعت|rifEat|Rifaat
زهير|zuhayr|Zuhair,Zouheir
سمير|samIr|
شادي|cAdI|Shadi,Chadi
شريف|carIf|Sharif,Cherif
صبحي|SubHI|Sobhi,Subhi
ضياء|DiyA'|Diaa,Diaa,Dia
عدي|Euday|Oday,Udai,Odai
غياث|giyAC|Ghiath,Ghiyas
فؤاد|fu'Ad|Fouad,Fuad
قصي|quSay|Qusai,Qussay,Kusay
كنان|kinAn|Kenan
ماجد|mAjid|Majed
مصعب|muSEab|Musab,Mosaab
معتز|muEtazz|Moataz,Mutaz
منير|munIr|Mounir
مهدي|mahdI|Mahdi,Mehdi
ناجي|nAjI|
نضال|niDAl|Nidal
هاني|hAnI|Hani
همام|hammAm|Humam,Homam
وحيد|waHId|
ياسين|yAsIn|Yassin,Yaseen
يزن|yazan|
يعقوب|yaEqUb|Yacoub,Yaqub
أديب|'adIb|
إدريس|'idrIs|Idriss
بكر|bakr|Bakr,Baker
توفيق|tawfIq|Tawfik,Toufik
جودت|jawdat|Jawdat,Joudat
حميد|HamId|
خضر|xiDr|Khader,Khodr,Khidr
راتب|rAtib|Rateb
زاهر|zAhir|Zaher
سالم|sAlim|Salem
سلطان|sulTAn|Sultan
شاكر|cAkir|Shaker,Chaker
صادق|SAdiq|Sadek
صفوان|SafwAn|Safwan
ضرار|DirAr|Derar
طه|TAhA|Taha
عارف|EArif|Aref
عبادة|EubAdO|Obada,Ubadah
عمران|EimrAn|Omran,Imran
غازي|gAzI|Ghazi
فارس|fAris|Fares
فتحي|fatHI|Fathi
فهد|fahd|
قتيبة|qutaybO|Qutaiba,Kotaiba
لطفي|luTfI|Lutfi
محي الدين|muHyI al-dIn|Mohieddine,Muhyiddin
مرهف|murhaf|Morhaf
معن|maEn|Maan
مفيد|mufId|
ممدوح|mamdUH|
منهل|manhal|
موفق|muwaffaq|Mouwafak,Muwaffaq
نايف|nAyif|Nayef
نعيم|naEIm|Naim
هلال|hilAl|
وجيه|wajIh|
يامن|yAmin|Yamen
عادل|EAdil|Adel
عامر|EAmir|Amer
عصام|EiSAm|Issam,Essam
علاء|EalA'|Alaa,Ala
لؤي|lu'ay|Louai,Luay,Loay
رائد|rA'id|Raed
داود|dAwUd|Dawood,Daoud
حيدر|Haydar|Haidar
حمدي|HamdI|
رشيد|racId|Rachid
طلال|TalAl|Talal
فواز|fawwAz|
فيصل|faySal|Faisal,Faycal
كمال|kamAl|
نعمان|nuEmAn|
حفص|HafS|
`);

/** Female given names, most frequent first. */
export const femaleNames = table(`
فاطمة|fATimO|Fatima,Fatma,Fatmeh,Fatimah
مريم|maryam|Mariam,Myriam,Meryem
خديجة|xadIjO|Khadija,Khadijeh,Khadidja
عائشة|EA'icO|Aisha,Aicha,Aysha,Ayesha
آمنة|'AminO|Amina,Ameneh
زينب|zaynab|Zainab,Zeinab
نور|nUr|Nour,Noor
هبة|hibO|Hiba,Heba
رنا|ranA|
سارة|sArO|Sara,Sarah
ريم|rIm|Reem,Rim
ديما|dImA|Dima
لينا|lInA|Lina
رهف|rahaf|
ياسمين|yAsmIn|Yasmine,Yasmin
منى|munY|Mona,Muna
سمر|samar|
سعاد|suEAd|Souad,Suad
نجلاء|najlA'|Najlaa
رشا|racA|Rasha,Racha
غادة|gAdO|Ghada
هدى|hudY|Huda,Houda
وفاء|wafA'|Wafaa
صفاء|SafA'|Safaa
أسماء|'asmA'|Asmaa,Asma
إيمان|'ImAn|Iman,Eman
أمل|'amal|
بشرى|bucrY|Bushra,Bouchra
حنان|HanAn|
خلود|xulUd|Kholoud
دعاء|duEA'|Doaa,Duaa
رغد|ragad|Raghad
رقية|ruqayyO|Ruqaya,Roukaya
زهراء|zahrA'|Zahraa
سلمى|salmY|Salma
سهام|sihAm|Siham
شيماء|caymA'|Shaimaa,Chaima
عبير|EabIr|Abeer,Abir
علا|EulA|Ola,Ula
فرح|faraH|Farah
لمى|lamY|Lama
ميساء|maysA'|Maysaa
نسرين|nisrIn|Nisreen,Nesrine
نادية|nAdiyO|Nadia
هالة|hAlO|Hala
هيفاء|hayfA'|Haifaa
وعد|waEd|
يسرى|yusrY|Yusra,Yousra
جميلة|jamIlO|Jamila
حليمة|HalImO|Halima
خولة|xawlO|Khawla
سميرة|samIrO|Samira
صباح|SabAH|Sabah
عفاف|EafAf|Afaf
ليلى|laylY|Layla,Leila
ماجدة|mAjidO|Majida
نوال|nawAl|
هند|hind|
أمينة|'amInO|
بتول|batUl|Batoul
تسنيم|tasnIm|
جنى|janY|Jana
حلا|HalA|
رزان|razAn|
روان|rawAn|
ريما|rImA|
زينة|zaynO|Zeina
سوسن|sawsan|
شهد|cahd|
عزة|EizzO|Azza,Izza
فدوى|fadwY|Fadwa
كوثر|kawCar|Kawthar
لبنى|lubnY|Lubna
مها|mahA|
نهى|nuhY|Nuha,Noha
هيام|hiyAm|
وداد|widAd|
`);

/** Common family names (a few with the article, as Syrians write them); the long tail is built below. */
export const commonFamilies = table(`
الحريري|al-HarIrI|
الزعبي|al-zuEbI|Zoubi,Al-Zoubi
المصري|al-miSrI|Masri,Al-Masri
الخطيب|al-xaTIb|Khatib,Al-Khatib,El-Khatib
الأحمد|al-'aHmad|
العلي|al-EalI|
الحسن|al-Hasan|Al-Hassan
الحسين|al-Husayn|Al-Hussein
العمر|al-Eumar|Al-Omar
الشامي|al-cAmI|
المحمد|al-muHammad|Al-Mohammad
الحمصي|al-HimSI|Homsi,Al-Homsi
الحلبي|al-HalabI|
الخليل|al-xalIl|
اليوسف|al-yUsuf|Al-Yousef
الجاسم|al-jAsim|Al-Jassem
الحمود|al-HammUd|
العبيد|al-Eubayd|Al-Obeid
الصالح|al-SAliH|Al-Saleh
الموسى|al-mUsY|Al-Moussa
العيسى|al-EIsY|Al-Issa
الخلف|al-xalaf|
المقداد|al-miqdAd|Meqdad,Al-Mikdad
العظمة|al-EaZmO|Azmeh,Al-Azmeh,Azem
البرازي|al-barAzI|Barazi,Al-Barazi
الأسعد|al-'asEad|
الدرويش|al-darwIc|
السيد|al-sayyid|Al-Sayed,El-Sayed
الشيخ|al-cayx|Al-Sheikh,El-Cheikh
قباني|qabbAnI|Kabbani,Qabbani
الجابي|al-jAbI|
طيارة|TayyArO|Tayara
النحاس|al-naHHAs|Nahas
الكيالي|al-kayyAlI|Kayali
العطار|al-EaTTAr|Attar,Al-Attar
حداد|HaddAd|Haddad
نجار|najjAr|Najjar
الصباغ|al-SabbAg|Sabbagh
خباز|xabbAz|Khabbaz
الدباغ|al-dabbAg|Dabbagh
كبارة|kabbArO|Kabbara
الأتاسي|al-'atAsI|Atassi,Al-Atassi
السباعي|al-sibAEI|Sibai,Al-Sibai
الدروبي|al-durUbI|Droubi
الجندي|al-jundI|Jundi,Al-Jundi
الرفاعي|al-rifAEI|Rifai,Al-Rifai
الزين|al-zayn|Zein,Al-Zein
الحمادة|al-HamAdO|
الفارس|al-fAris|
النعسان|al-naEsAn|
الطويل|al-TawIl|
القصير|al-quSayr|
الأسود|al-'aswad|
اللبابيدي|al-labAbIdI|
التركماني|al-turkmAnI|
الكردي|al-kurdI|Kurdi,Al-Kurdi
الحوراني|al-HawrAnI|Hourani
الإدلبي|al-'idlibI|Idlibi
الديري|al-dayrI|
الحموي|al-HamawI|Hamwi
الحراكي|al-HarAkI|
قطيفان|quTayfAn|
المحاميد|al-maHAmId|Mahamid
الجباوي|al-jabAwI|
أبازيد|'abAzId|Abazeed,Abazid
الغوثاني|al-gawCAnI|
البيطار|al-bayTAr|Bitar,Al-Bitar
شحادة|caHAdO|Shehadeh,Chehade,Shahada
حمدان|HamdAn|
البكري|al-bakrI|
الكسم|al-kasm|
الدقر|al-daqr|
غزال|gazAl|Ghazal
الخياط|al-xayyAT|Khayat,Al-Khayyat
الحكيم|al-HakIm|
الطباع|al-TabbAE|Tabbaa
دياب|diyAb|Diab
قاسم|qAsim|Kassem
إبراهيم|'ibrAhIm|Ibrahim
سليمان|sulaymAn|Suleiman
عثمان|EuCmAn|Othman
يونس|yUnus|Younes
الناصر|al-nASir|Al-Nasser
المصطفى|al-muSTafY|Al-Mustafa
الشهابي|al-cihAbI|Shehabi,Chehabi
الحلاق|al-HallAq|Hallak
الأيوبي|al-'ayyUbI|Ayoubi
الحسيني|al-HusaynI|Husseini,Al-Husseini
الجزائري|al-jazA'irI|Jazairi
الضاهر|al-DAhir|Daher
المعراوي|al-maErAwI|
الحمش|al-Hamc|
الشعار|al-caEEAr|Shaar,Chaar
البني|al-bunnI|Bunni
كيوان|kaywAn|Kaiwan
العمري|al-EumarI|Omari
النابلسي|al-nAbulusI|Nabulsi
السقا|al-saqqA|Sakka,Saqqa
القدسي|al-qudsI|Koudsi
المسالمة|al-masAlmO|Masalmeh
الحجي|al-HajjI|Hajji
الخضر|al-xiDr|
العثمان|al-EuCmAn|
الحسون|al-HassUn|Hassoun
بكور|bakkUr|Bakour
عرنوس|EarnUs|Arnous
زيدان|zaydAn|Zeidan
الملا|al-mullA|Mulla,Al-Moulla
الأصفر|al-'aSfar|
الأبرش|al-'abrac|
الحلو|al-Hilw|Helou,Al-Helw
البدوي|al-badawI|Badawi
الأحمر|al-'aHmar|
الفحل|al-faHl|
الجراح|al-jarrAH|Jarrah
الكناني|al-kinAnI|
داغستاني|dAgistAnI|Daghestani
الحصري|al-HuSrI|Hosari
الطحان|al-TaHHAn|Tahhan
شربجي|carbajI|Sharbaji,Charbaji
السمان|al-sammAn|Samman
الخوجة|al-xUjO|Khoja
زيتون|zaytUn|Zaitoun,Zeitoun
درويش|darwIc|Darwish,Derwich
سويدان|suwaydAn|Sweidan
مراد|murAd|Mourad
القاضي|al-qADI|Kadi,Al-Kadi
الشريف|al-carIf|
عكاش|EakkAc|Akkash
العبود|al-EabbUd|Al-Abboud
المعلم|al-muEallim|Moallem
الريس|al-rayyis|Rayes
`);

/** Conventional kunyas: a man called X is often called "father of Y" whatever his sons' names. */
export const conventionalKunya: Readonly<Record<string, string>> = {
  علي: 'حسن',
  حسن: 'علي',
  حسين: 'علي',
  إبراهيم: 'خليل',
  يوسف: 'يعقوب',
  خالد: 'وليد',
  سليمان: 'داود',
  عمر: 'حفص',
  إسماعيل: 'إبراهيم',
  يعقوب: 'يوسف',
};

/** Hypocoristics a Syrian reader knows for the name (Arabic, key). */
export const nicknames: Readonly<Record<string, readonly [string, string]>> = {
  محمد: ['حمودة', 'HammUdO'],
  أحمد: ['حمادة', 'HamAdO'],
  'عبد الرحمن': ['عبدو', 'Eabdu'],
  'عبد الله': ['عبود', 'EabbUd'],
  مصطفى: ['صطوف', 'STUf'],
  إبراهيم: ['برهوم', 'barhUm'],
  'عبد الكريم': ['كريم', 'karIm'],
  فاطمة: ['فطوم', 'faTTUm'],
  خديجة: ['خدوج', 'xaddUj'],
  محمود: ['حمود', 'HammUd'],
};

// ——— the long tail of family names: roots and patterns ———

/** Root consonants with rough weights (no weak letters or hamza: the patterns supply those). */
const rootLetters: readonly (readonly [string, number])[] = [
  ['b', 5],
  ['t', 2],
  ['C', 1],
  ['j', 3],
  ['H', 5],
  ['x', 3],
  ['d', 4],
  ['V', 1],
  ['r', 6],
  ['z', 3],
  ['s', 5],
  ['c', 3],
  ['S', 3],
  ['D', 1],
  ['T', 3],
  ['Z', 1],
  ['E', 4],
  ['g', 2],
  ['f', 4],
  ['q', 4],
  ['k', 4],
  ['l', 5],
  ['m', 5],
  ['n', 5],
  ['h', 2],
];

/**
 * Places of articulation: Arabic roots rarely put two consonants of one place side by side (no حخع, no تد, no
 * بم), so a root with such a pair is drawn again. Sonorants (l r n) only refuse themselves.
 */
const placeOf: Readonly<Record<string, string>> = {
  b: 'L',
  f: 'L',
  m: 'L',
  t: 'C',
  d: 'C',
  T: 'C',
  D: 'C',
  C: 'C',
  V: 'C',
  s: 'C',
  z: 'C',
  S: 'C',
  Z: 'C',
  c: 'C',
  j: 'C',
  k: 'K',
  q: 'K',
  x: 'KG',
  g: 'KG',
  H: 'G',
  E: 'G',
  h: 'G',
};
function homorganic(a: string, b: string): boolean {
  const x = placeOf[a];
  const y = placeOf[b];
  if (!x || !y) return false;
  for (const c of x) if (y.includes(c)) return true;
  return false;
}

/** Word patterns over a root (1 2 3 are its consonants), with a weight and whether the article is usual. */
const patterns: readonly (readonly [string, number, number])[] = [
  ['1a22A3', 8, 0.4], // faʿʿāl: trades
  ['1a23An', 7, 0.2], // faʿlān
  ['1A2i3', 6, 0.5], // fāʿil
  ['1a2I3', 5, 0.4], // faʿīl
  ['1a23AwI', 5, 0.7], // nisba in -āwī
  ['1a2A3I', 4, 0.7], // nisba
  ['1u2A3I', 3, 0.7],
  ['1u2ay3', 4, 0.3], // fuʿayl
  ['1u2ay3I', 2, 0.6],
  ['ma12U3', 3, 0.3], // mafʿūl
  ['1a2A3O', 4, 0.2], // faʿāla
  ['1a22U3', 4, 0.3], // faʿʿūl
  ['1a23O', 3, 0.2], // faʿla
  ['1a23UnI', 2, 0.6],
  ['1a2a3', 2, 0.5],
  ["'abU 1a23", 2, 0], // أبو زيد-like family names (a kunya become a name)
];

const arabicLetter: Readonly<Record<string, string>> = {
  b: 'ب',
  t: 'ت',
  C: 'ث',
  j: 'ج',
  H: 'ح',
  x: 'خ',
  d: 'د',
  V: 'ذ',
  r: 'ر',
  z: 'ز',
  s: 'س',
  c: 'ش',
  S: 'ص',
  D: 'ض',
  T: 'ط',
  Z: 'ظ',
  E: 'ع',
  g: 'غ',
  f: 'ف',
  q: 'ق',
  k: 'ك',
  l: 'ل',
  m: 'م',
  n: 'ن',
  h: 'ه',
  w: 'و',
  y: 'ي',
  A: 'ا',
  I: 'ي',
  U: 'و',
  O: 'ة',
  Y: 'ى',
};

/** The Arabic spelling of a key (short vowels unwritten, a doubled consonant written once, hamza on its seat). */
export function arabicOfKey(key: string): string {
  return key
    .split(' ')
    .map((word) => {
      let w = word;
      let out = '';
      if (w.startsWith('al-')) {
        out = 'ال';
        w = w.slice(3);
      }
      for (let k = 0; k < w.length; k++) {
        const c = w[k] as string;
        if (c === 'a' || c === 'i' || c === 'u') continue;
        if (c === "'") {
          const next = w[k + 1];
          const prev = w[k - 1];
          if (k === 0) {
            if (next === 'A') {
              out += 'آ';
              k++;
            } else out += next === 'i' ? 'إ' : 'أ';
          } else if (next === 'i' || next === 'I' || prev === 'i' || prev === 'I') out += 'ئ';
          else if (prev === 'u') out += 'ؤ';
          else out += k === w.length - 1 ? 'ء' : 'أ';
          continue;
        }
        if (k > 0 && w[k - 1] === c) continue;
        out += arabicLetter[c] ?? '';
      }
      return out;
    })
    .join(' ');
}

/**
 * The family names of world C: the common ones first, then `tail` built from random roots and patterns with a
 * fixed generator of its own (a small LCG: the pool is the same for every seed; the people drawn from it are not).
 */
export function familyPool(tail: number): NameEntry[] {
  const out: NameEntry[] = [...commonFamilies];
  const seen = new Set(out.map((n) => n.ar));
  let state = 0x2f6b1d3 >>> 0;
  const rand = () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return (state >>> 8) / 16777216;
  };
  const weighted = <T>(
    options: readonly (readonly [T, number, ...unknown[]])[],
  ): readonly [T, number, ...unknown[]] => {
    let total = 0;
    for (const o of options) total += o[1];
    let x = rand() * total;
    for (const o of options) {
      x -= o[1];
      if (x < 0) return o;
    }
    return options[options.length - 1] as readonly [T, number, ...unknown[]];
  };
  let guard = 0;
  while (out.length < commonFamilies.length + tail && guard++ < tail * 20) {
    const c1 = weighted(rootLetters)[0];
    const c2 = weighted(rootLetters)[0];
    const c3 = weighted(rootLetters)[0];
    if (c1 === c2 || c2 === c3 || c1 === c3 || homorganic(c1, c2) || homorganic(c2, c3)) continue;
    const [pattern, , articled] = weighted(patterns) as readonly [string, number, number];
    let key = pattern.replace('1', c1).replace(/2/g, c2).replace('3', c3);
    if (rand() < articled) key = `al-${key}`;
    const ar = arabicOfKey(key);
    if (seen.has(ar)) continue;
    seen.add(ar);
    out.push({ ar, key, alt: [] });
  }
  return out;
}

// ——— places ———

export interface Governorate {
  ar: string;
  en: readonly string[];
  fr: readonly string[];
}

export const governorates: Readonly<Record<string, Governorate>> = {
  دمشق: { ar: 'دمشق', en: ['Damascus', 'Damascus', 'Dimashq'], fr: ['Damas', 'Damas', 'Damascus'] },
  'ريف دمشق': {
    ar: 'ريف دمشق',
    en: ['Rif Dimashq', 'Rural Damascus', 'Damascus Countryside', 'Reef Damascus', 'Rif Damascus'],
    fr: ['Rif Damas', 'Campagne de Damas', 'Rif Dimachq'],
  },
  درعا: { ar: 'درعا', en: ['Daraa', 'Deraa', "Dar'a", 'Dara'], fr: ['Deraa', 'Daraa', 'Dera'] },
  حمص: { ar: 'حمص', en: ['Homs', 'Homs', 'Hims'], fr: ['Homs'] },
  حماة: { ar: 'حماة', en: ['Hama', 'Hamah'], fr: ['Hama', 'Hamah'] },
  إدلب: { ar: 'إدلب', en: ['Idlib', 'Idleb'], fr: ['Idleb', 'Idlib'] },
  حلب: { ar: 'حلب', en: ['Aleppo', 'Aleppo', 'Halab'], fr: ['Alep', 'Alep', 'Aleppo'] },
  اللاذقية: { ar: 'اللاذقية', en: ['Latakia', 'Lattakia', 'Al-Ladhiqiyah'], fr: ['Lattaquié', 'Lattakia'] },
  طرطوس: { ar: 'طرطوس', en: ['Tartus', 'Tartous'], fr: ['Tartous'] },
  'دير الزور': {
    ar: 'دير الزور',
    en: ['Deir ez-Zor', 'Deir Ezzor', 'Deir al-Zour', 'Dayr az-Zawr'],
    fr: ['Deir ez-Zor', 'Deir Ezzor'],
  },
  الرقة: { ar: 'الرقة', en: ['Raqqa', 'Al-Raqqa', 'Rakka'], fr: ['Raqqa', 'Rakka'] },
  الحسكة: { ar: 'الحسكة', en: ['Hasakah', 'Al-Hasakah', 'Hasaka'], fr: ['Hassaké', 'Hassakeh'] },
  القنيطرة: { ar: 'القنيطرة', en: ['Quneitra', 'Qunaitra', 'Kuneitra'], fr: ['Qouneitra', 'Kuneitra'] },
  السويداء: { ar: 'السويداء', en: ['Suwayda', 'As-Suwayda', 'Sweida'], fr: ['Soueïda', 'Soueida'] },
};

export interface Town {
  ar: string;
  key: string;
  gov: string;
  weight: number;
  alt: readonly string[];
}

function towns(text: string): Town[] {
  const out: Town[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    const [ar, key, gov, weight, alt] = t.split('|');
    if (!ar || !key || !gov || !governorates[gov]) throw new Error(`world C: bad town line ${t}`);
    out.push({ ar, key, gov, weight: Number(weight || 1), alt: alt ? alt.split(',') : [] });
  }
  return out;
}

/** Towns and quarters (a quarter for the large cities), governorate, weight (rough share of the detained). */
export const townList = towns(`
الميدان|al-maydAn|دمشق|2|Midan,Al-Midan
القدم|al-qadam|دمشق|1|Qadam
برزة|barzO|دمشق|2|Barzeh,Barza
القابون|al-qAbUn|دمشق|2|Qaboun,Kaboun
جوبر|jawbar|دمشق|2|Jobar
كفرسوسة|kafarsUsO|دمشق|1|Kafr Sousa,Kafarsouseh
المزة|al-mizzO|دمشق|2|Mezzeh,Mazzeh
ركن الدين|rukn al-dIn|دمشق|1|Rukn al-Din,Rukneddine
الشاغور|al-cAgUr|دمشق|1|Shaghour,Chaghour
التضامن|al-taDAmun|دمشق|2|Tadamon,Tadamun
مخيم اليرموك|muxayyam al-yarmUk|دمشق|2|Yarmouk,Yarmouk Camp
العسالي|al-EasAlI|دمشق|1|Assali
دمر|dummar|دمشق|1|Dummar,Doummar
دوما|dUmA|ريف دمشق|5|Douma,Duma
داريا|dArayyA|ريف دمشق|4|Darayya,Daraya,Dariya
الزبداني|al-zabadAnI|ريف دمشق|2|Zabadani,Al-Zabadani
حرستا|HarastA|ريف دمشق|2|Harasta
عربين|EarbIn|ريف دمشق|2|Arbin,Erbin
زملكا|zamalkA|ريف دمشق|2|Zamalka
كفربطنا|kafarbaTnA|ريف دمشق|2|Kafr Batna,Kafarbatna
سقبا|saqbA|ريف دمشق|1|Saqba
حمورية|HammUriyyO|ريف دمشق|1|Hammouriyeh,Hamouria
معضمية الشام|muEaDDamiyyO|ريف دمشق|2|Moadamiyet al-Sham,Muadamiya,Al-Moadamiyeh
التل|al-tall|ريف دمشق|2|Al-Tall,Tal
يبرود|yabrUd|ريف دمشق|1|Yabroud
النبك|al-nabk|ريف دمشق|1|Nabek,Al-Nabk
قدسيا|qudsayyA|ريف دمشق|1|Qudsaya
الكسوة|al-kiswO|ريف دمشق|1|Kisweh,Al-Kiswah
ببيلا|babbIlA|ريف دمشق|1|Babbila
يلدا|yaldA|ريف دمشق|1|Yalda
مضايا|maDAyA|ريف دمشق|1|Madaya
رنكوس|rankUs|ريف دمشق|1|Rankous
عين ترما|Eayn tarmA|ريف دمشق|1|Ain Tarma,Ein Tarma
القطيفة|al-quTayfO|ريف دمشق|1|Qutayfah
الضمير|al-Dumayr|ريف دمشق|1|Dumair,Al-Dumayr
جيرود|jayrUd|ريف دمشق|1|Jayroud,Jairoud
صيدنايا|SaydnAyA|ريف دمشق|1|Saydnaya,Sednaya
كناكر|kanAkir|ريف دمشق|1|Kanaker
درعا|darEA|درعا|4|Daraa,Deraa,Dara
بصرى الشام|buSrY al-cAm|درعا|2|Bosra,Busra al-Sham,Bosra Al-Sham
طفس|Tafas|درعا|2|Tafas
انخل|'inxil|درعا|2|Inkhil,Inkhel
جاسم|jAsim|درعا|2|Jasim,Jassem
نوى|nawY|درعا|2|Nawa
الحراك|al-HirAk|درعا|2|Al-Hirak,Hrak
الصنمين|al-Sanamayn|درعا|2|Sanamayn,Al-Sanamein
داعل|dAEil|درعا|1|Dael
إزرع|'izraE|درعا|1|Izra,Ezraa
الشيخ مسكين|al-cayx miskIn|درعا|1|Sheikh Miskin,Cheikh Meskine
المسيفرة|al-musayfirO|درعا|1|Musayfirah,Msifra
الكرك الشرقي|al-karak al-carqI|درعا|1|Karak,Al-Karak al-Sharqi
عتمان|EatmAn|درعا|1|Atman,Itman
اليادودة|al-yAdUdO|درعا|1|Yadudah,Yadouda
خربة غزالة|xirbO gazAlO|درعا|1|Khirbet Ghazaleh,Kherbet Ghazaleh
تل شهاب|tall cihAb|درعا|1|Tal Shihab,Tell Chehab
الجيزة|al-jIzO|درعا|1|Jiza
المزيريب|al-muzayrIb|درعا|1|Muzayrib,Mzeireb
حمص|HimS|حمص|5|Homs,Hims
تلبيسة|talbIsO|حمص|2|Talbiseh,Talbisa
الرستن|al-rastan|حمص|2|Rastan,Al-Rastan
القصير|al-quSayr|حمص|2|Qusayr,Al-Qusair,Qseir
الحولة|al-HUlO|حمص|2|Houla,Al-Hula
تلكلخ|tallkalax|حمص|1|Tal Kalakh,Talkalakh
تدمر|tadmur|حمص|1|Palmyra,Tadmur,Tadmor
القريتين|al-qaryatayn|حمص|1|Qaryatayn,Al-Qaryatain
الغنطو|al-ganTU|حمص|1|Ghantu,Al-Ghanto
بابا عمرو|bAbA Eamr|حمص|2|Baba Amr,Bab Amr
الخالدية|al-xAlidiyyO|حمص|2|Khalidiya,Al-Khaldiyeh
الوعر|al-waEr|حمص|2|Waer,Al-Waer
دير بعلبة|dayr baElabO|حمص|1|Deir Baalba
حماة|HamA|حماة|5|Hama,Hamah
كفرزيتا|kafarzItA|حماة|1|Kafr Zita,Kafrzita
اللطامنة|al-laTAminO|حماة|1|Latamneh,Al-Lataminah
مورك|mUrik|حماة|1|Morek
صوران|SUrAn|حماة|1|Souran,Suran
طيبة الإمام|Tayybat al-'imAm|حماة|1|Taybat al-Imam
حلفايا|HalfAyA|حماة|1|Halfaya
السلمية|al-salamiyyO|حماة|1|Salamiyah,Salamieh
كرناز|karnAz|حماة|1|Karnaz
قلعة المضيق|qalEat al-maDIq|حماة|1|Qalaat al-Madiq
إدلب|'idlib|إدلب|3|Idlib,Idleb
معرة النعمان|maErat al-nuEmAn|إدلب|2|Maarat al-Numan,Maaret al-Nouman
سراقب|sarAqib|إدلب|2|Saraqib,Saraqeb
أريحا|'arIHA|إدلب|1|Ariha
جسر الشغور|jisr al-cugUr|إدلب|1|Jisr al-Shughur,Jisr ash-Shughour
كفرنبل|kafranbal|إدلب|1|Kafranbel,Kafr Nabl
خان شيخون|xAn cayxUn|إدلب|1|Khan Shaykhun,Khan Sheikhoun
بنش|binnic|إدلب|1|Binnish,Benech
سرمين|sarmIn|إدلب|1|Sarmin
تفتناز|taftanAz|إدلب|1|Taftanaz
سلقين|salqIn|إدلب|1|Salqin
حارم|HArim|إدلب|1|Harem,Harim
حلب|Halab|حلب|5|Aleppo,Halab,Alep
صلاح الدين|SalAH al-dIn|حلب|1|Salah al-Din,Salaheddine
الشعار|al-caEEAr|حلب|1|Shaar,Al-Shaar
بستان القصر|bustAn al-qaSr|حلب|1|Bustan al-Qasr
الصاخور|al-SAxUr|حلب|1|Sakhour
مساكن هنانو|masAkin hanAnU|حلب|1|Masaken Hanano,Hanano
منبج|manbij|حلب|1|Manbij,Menbij
الباب|al-bAb|حلب|1|Al-Bab
اعزاز|EazAz|حلب|1|Azaz,Aazaz
عندان|EandAn|حلب|1|Anadan,Andan
حريتان|HuraytAn|حلب|1|Haritan,Hreitan
تل رفعت|tall rifEat|حلب|1|Tal Rifaat,Tell Rifaat
مارع|mAriE|حلب|1|Marea,Mare
الأتارب|al-'atArib|حلب|1|Atarib,Al-Atareb
دارة عزة|dArat Eazza|حلب|1|Darat Izza,Daret Azza
السفيرة|al-safIrO|حلب|1|Safira,Al-Safireh
اللاذقية|al-lAViqiyyO|اللاذقية|1|Latakia,Lattakia
جبلة|jablO|اللاذقية|1|Jableh,Jabla
الحفة|al-HaffO|اللاذقية|1|Haffa,Al-Haffah
سلمى|salmY|اللاذقية|1|Salma
الرمل الجنوبي|al-raml al-janUbI|اللاذقية|1|Ramel,Al-Raml al-Janoubi
طرطوس|TarTUs|طرطوس|1|Tartus,Tartous
بانياس|bAniyAs|طرطوس|1|Baniyas,Banias
البيضا|al-bayDA|طرطوس|1|Bayda,Al-Bayda
دير الزور|dayr al-zUr|دير الزور|2|Deir ez-Zor,Deir Ezzor,Deir al-Zour
الميادين|al-mayAdIn|دير الزور|1|Mayadin,Al-Mayadeen
البوكمال|al-bUkamAl|دير الزور|1|Abu Kamal,Albukamal,Boukamal
موحسن|mUHasan|دير الزور|1|Muhasan,Mohassan
العشارة|al-EacArO|دير الزور|1|Ashara,Al-Asharah
الرقة|al-raqqO|الرقة|1|Raqqa,Al-Raqqah,Rakka
الطبقة|al-TabqO|الرقة|1|Tabqa,Al-Tabqa
تل أبيض|tall 'abyaD|الرقة|1|Tal Abyad,Tell Abyad
الحسكة|al-HasakO|الحسكة|1|Hasakah,Al-Hasakah,Hassakeh
القامشلي|al-qAmiclI|الحسكة|1|Qamishli,Kamishli,Qamichli
رأس العين|ra's al-Eayn|الحسكة|1|Ras al-Ayn,Ras al-Ain
عامودا|EAmUdA|الحسكة|1|Amuda,Amouda
خان أرنبة|xAn 'arnabO|القنيطرة|1|Khan Arnabah,Khan Arnaba
جباتا الخشب|jubAtA al-xacab|القنيطرة|1|Jubata al-Khashab
مسحرة|masHarO|القنيطرة|1|Mashara,Masharah
السويداء|al-suwaydA'|السويداء|1|Suwayda,Sweida,Soueida
شهبا|cahbA|السويداء|1|Shahba,Chahba
صلخد|Salxad|السويداء|1|Salkhad
`);

// ——— branches and prisons ———

export type Agency = 'mi' | 'af' | 'gi' | 'ps' | 'mp' | 'prison';

/** What families and lists write when they know only the service (none of them names one branch). */
export const agencyNames: Readonly<Record<Agency, { ar: readonly string[]; la: readonly string[] }>> = {
  mi: {
    ar: ['الأمن العسكري', 'المخابرات العسكرية', 'شعبة المخابرات العسكرية'],
    la: ['Military Intelligence', 'Military Security', 'Renseignement militaire'],
  },
  af: {
    ar: ['المخابرات الجوية', 'الأمن الجوي', 'إدارة المخابرات الجوية'],
    la: ['Air Force Intelligence', 'Air Force Security', "Renseignement de l'armée de l'air"],
  },
  gi: {
    ar: ['أمن الدولة', 'المخابرات العامة'],
    la: ['State Security', 'General Intelligence', 'Sûreté de l’État'],
  },
  ps: { ar: ['الأمن السياسي'], la: ['Political Security', 'Sécurité politique'] },
  mp: { ar: ['الشرطة العسكرية'], la: ['Military Police', 'Police militaire'] },
  prison: { ar: ['السجن'], la: ['Prison'] },
};

export interface Place {
  id: string;
  agency: Agency;
  gov: string;
  /** Arabic names that designate this place alone; the first is the official one (a register's heading). */
  ar: readonly string[];
  la: readonly string[];
  /** What a forensic card writes for the place, and whether that designates it alone. */
  code: string;
  codeExact: boolean;
  /** Share of the place's detainees whose page of its register reached the commission (0: no register). */
  register: number;
  weight: number;
}

export const places: readonly Place[] = [
  {
    id: 'mi-215',
    agency: 'mi',
    gov: 'دمشق',
    ar: ['فرع السرية 215', 'الفرع 215', 'فرع المداهمة 215', 'سرية المداهمة'],
    la: ['Branch 215', 'Raid Brigade 215', 'Military Intelligence Branch 215', 'Raids Branch (215)'],
    code: '215',
    codeExact: true,
    register: 0.7,
    weight: 4,
  },
  {
    id: 'mi-227',
    agency: 'mi',
    gov: 'دمشق',
    ar: ['فرع المنطقة 227', 'الفرع 227', 'فرع المنطقة'],
    la: ['Branch 227', 'Regional Branch (227)', 'Area Branch', "Far' al-Mantiqa"],
    code: '227',
    codeExact: true,
    register: 0.6,
    weight: 4,
  },
  {
    id: 'mi-235',
    agency: 'mi',
    gov: 'دمشق',
    ar: ['فرع فلسطين', 'الفرع 235', 'فرع فلسطين 235'],
    la: ['Palestine Branch', 'Branch 235', "Far' Falastin", 'Branche Palestine'],
    code: '235',
    codeExact: true,
    register: 0.5,
    weight: 4,
  },
  {
    id: 'mi-248',
    agency: 'mi',
    gov: 'دمشق',
    ar: ['فرع التحقيق العسكري 248', 'الفرع 248', 'فرع التحقيق العسكري'],
    la: ['Military Investigation Branch 248', 'Branch 248'],
    code: '248',
    codeExact: true,
    register: 0.6,
    weight: 2,
  },
  {
    id: 'mi-220',
    agency: 'mi',
    gov: 'ريف دمشق',
    ar: ['فرع سعسع 220', 'الفرع 220', 'فرع سعسع'],
    la: ['Sasa Branch', 'Branch 220'],
    code: '220',
    codeExact: true,
    register: 0,
    weight: 1,
  },
  {
    id: 'mi-245',
    agency: 'mi',
    gov: 'درعا',
    ar: ['فرع الأمن العسكري في درعا', 'الفرع 245'],
    la: ['Branch 245', 'Military Intelligence, Daraa branch'],
    code: '245',
    codeExact: true,
    register: 0.5,
    weight: 3,
  },
  {
    id: 'mi-261',
    agency: 'mi',
    gov: 'حمص',
    ar: ['فرع الأمن العسكري في حمص', 'الفرع 261'],
    la: ['Branch 261', 'Military Intelligence, Homs branch'],
    code: '261',
    codeExact: true,
    register: 0.4,
    weight: 3,
  },
  {
    id: 'mi-219',
    agency: 'mi',
    gov: 'حماة',
    ar: ['فرع الأمن العسكري في حماة', 'الفرع 219'],
    la: ['Branch 219', 'Military Intelligence, Hama branch'],
    code: '219',
    codeExact: true,
    register: 0,
    weight: 3,
  },
  {
    id: 'mi-271',
    agency: 'mi',
    gov: 'إدلب',
    ar: ['فرع الأمن العسكري في إدلب', 'الفرع 271'],
    la: ['Branch 271', 'Military Intelligence, Idlib branch'],
    code: '271',
    codeExact: true,
    register: 0.3,
    weight: 3,
  },
  {
    id: 'mi-290',
    agency: 'mi',
    gov: 'حلب',
    ar: ['فرع الأمن العسكري في حلب', 'الفرع 290'],
    la: ['Branch 290', 'Military Intelligence, Aleppo branch'],
    code: '290',
    codeExact: true,
    register: 0,
    weight: 3,
  },
  {
    id: 'mi-243',
    agency: 'mi',
    gov: 'دير الزور',
    ar: ['فرع الأمن العسكري في دير الزور', 'الفرع 243'],
    la: ['Branch 243', 'Military Intelligence, Deir ez-Zor branch'],
    code: '243',
    codeExact: true,
    register: 0,
    weight: 2,
  },
  {
    id: 'af-mezzeh',
    agency: 'af',
    gov: 'دمشق',
    ar: [
      'فرع التحقيق في المخابرات الجوية - مطار المزة',
      'مطار المزة العسكري',
      'فرع المخابرات الجوية في المزة',
    ],
    la: [
      'Air Force Intelligence Investigation Branch, Mezzeh Airport',
      'Mezzeh Military Airport',
      'Aéroport militaire de Mezzeh',
    ],
    code: 'الجوية',
    codeExact: false,
    register: 0.4,
    weight: 4,
  },
  {
    id: 'af-harasta',
    agency: 'af',
    gov: 'ريف دمشق',
    ar: ['فرع المخابرات الجوية في حرستا', 'المخابرات الجوية حرستا'],
    la: ['Air Force Intelligence, Harasta', 'Harasta Air Force Branch'],
    code: 'الجوية',
    codeExact: false,
    register: 0,
    weight: 2,
  },
  {
    id: 'af-aleppo',
    agency: 'af',
    gov: 'حلب',
    ar: ['فرع المخابرات الجوية في حلب'],
    la: ['Air Force Intelligence, Aleppo'],
    code: 'الجوية',
    codeExact: false,
    register: 0,
    weight: 2,
  },
  {
    id: 'af-homs',
    agency: 'af',
    gov: 'حمص',
    ar: ['فرع المخابرات الجوية في حمص'],
    la: ['Air Force Intelligence, Homs'],
    code: 'الجوية',
    codeExact: false,
    register: 0,
    weight: 2,
  },
  {
    id: 'af-daraa',
    agency: 'af',
    gov: 'درعا',
    ar: ['فرع المخابرات الجوية في درعا'],
    la: ['Air Force Intelligence, Daraa'],
    code: 'الجوية',
    codeExact: false,
    register: 0,
    weight: 2,
  },
  {
    id: 'gi-251',
    agency: 'gi',
    gov: 'دمشق',
    ar: ['فرع الخطيب', 'الفرع 251', 'فرع أمن الدولة 251'],
    la: ['Al-Khatib Branch', 'Branch 251', 'Khatib Branch'],
    code: '251',
    codeExact: true,
    register: 0.5,
    weight: 3,
  },
  {
    id: 'gi-285',
    agency: 'gi',
    gov: 'دمشق',
    ar: ['الفرع 285', 'فرع التحقيق 285', 'فرع أمن الدولة في كفرسوسة'],
    la: ['Branch 285', 'State Security Investigation Branch 285'],
    code: '285',
    codeExact: true,
    register: 0.4,
    weight: 2,
  },
  {
    id: 'ps-fayhaa',
    agency: 'ps',
    gov: 'دمشق',
    ar: ['فرع الأمن السياسي في الفيحاء', 'فرع الفيحاء'],
    la: ['Political Security, Fayhaa', 'Fayhaa Branch'],
    code: 'الفيحاء',
    codeExact: true,
    register: 0,
    weight: 2,
  },
  {
    id: 'ps-hama',
    agency: 'ps',
    gov: 'حماة',
    ar: ['فرع الأمن السياسي في حماة'],
    la: ['Political Security, Hama'],
    code: 'السياسية حماة',
    codeExact: true,
    register: 0,
    weight: 1,
  },
  {
    id: 'mp-qaboun',
    agency: 'mp',
    gov: 'دمشق',
    ar: ['الشرطة العسكرية في القابون', 'الشرطة العسكرية بالقابون'],
    la: ['Military Police in Qaboun', 'Military Police, Qaboun', 'Qaboun Military Police'],
    code: 'الشرطة العسكرية',
    codeExact: false,
    register: 0.6,
    weight: 2,
  },
  {
    id: 'mp-homs',
    agency: 'mp',
    gov: 'حمص',
    ar: ['الشرطة العسكرية في حمص'],
    la: ['Military Police, Homs'],
    code: 'الشرطة العسكرية',
    codeExact: false,
    register: 0,
    weight: 1,
  },
  {
    id: 'saydnaya',
    agency: 'prison',
    gov: 'ريف دمشق',
    ar: ['سجن صيدنايا العسكري', 'سجن صيدنايا', 'صيدنايا'],
    la: ['Saydnaya Military Prison', 'Sednaya Prison', 'Saydnaya', 'Prison de Saydnaya'],
    code: 'صيدنايا',
    codeExact: true,
    register: 0.65,
    weight: 0,
  },
  {
    id: 'adra',
    agency: 'prison',
    gov: 'ريف دمشق',
    ar: ['سجن دمشق المركزي (عدرا)', 'سجن عدرا المركزي', 'سجن عدرا'],
    la: ['Adra Central Prison', 'Adra Prison', 'Damascus Central Prison'],
    code: 'عدرا',
    codeExact: true,
    register: 0.55,
    weight: 0,
  },
];
