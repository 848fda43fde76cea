/**
 * Curated lexicon of common Syrian and Arabic names and their usual Latin spellings (English, French, academic and
 * diaspora-list styles). Written from general knowledge of naming practice; it names no person.
 *
 * Line format: `Arabic[/Arabic variant…] : latin latin …`. Latin spellings are matching forms (lower case, no
 * hyphens); compounds may be written glued ("abdulrahman") — canonical.ts reduces all compound variants alike.
 * A Latin spelling may belong to two entries when it is genuinely ambiguous ("hassan": حسن or حسان).
 */

export const GIVEN_NAMES = `
محمد : mohammad muhammad mohamed mohammed muhammed mohamad muhamad mouhamad mouhammad mouhamed mohammod mhd mohd mohamd muhamed mohamet mehmet mahomed mohammd
أحمد : ahmad ahmed ahmet achmad ahmd
محمود : mahmoud mahmud mahmood mahmut mahmod
حامد : hamed hamid haamed
حمد : hamad hamd
حمدي : hamdi hamdy
حمدان : hamdan
حميد : hamid hameed humaid
أسامة : osama usama oussama ousama usamah osamah
عمر : omar umar omer oumar
عمار : ammar amar ammaar
عامر : amer aamer
أمير : amir ameer emir
علي : ali aly alee
علاء : alaa ala alae
حسن : hasan hassan hasen hassen
حسين : hussein husein husain hussain husayn houssein hossein hussin hoseyn hussien houssain hussen huseyin
حسان : hassan hassaan hasaan
حسام : hussam husam houssam hossam hosam
حسني : husni hosni housni
خالد : khaled khalid khaaled chaled
خليل : khalil khaleel
يوسف : yousef yusuf youssef yousif yusef yosef youssouf yussuf yousuf youcef
إبراهيم/ابرهيم : ibrahim ebrahim ibraheem brahim ibrahem
إسماعيل/اسمعيل : ismail ismaeel ismaiel esmail ismael smail
مصطفى : mustafa moustafa mostafa mustapha mostapha moustapha
عثمان : othman osman uthman outhman usman
عدنان : adnan adnane
أنس : anas
أيمن : ayman aiman eyman
أيهم : ayham aiham
إياد : iyad eyad iyyad ayad
عماد : imad emad imaad
باسل : bassel basel basil bassil
بشار : bashar bachar bashshar
بشير : bashir bachir basheer bechir
بلال : bilal belal
فادي : fadi fady
فارس : fares faris phares
فراس : firas feras ferass
غسان : ghassan ghasan
غياث : ghiath ghiyath ghayath
غيث : ghaith ghayth gaith
حمزة : hamza hamzah hamzeh
هيثم : haitham haytham heitham
هاني : hani hany
هادي : hadi hady
حازم : hazem hazim
هشام : hisham hicham hesham
جمال : jamal gamal djamal
جميل : jamil jameel gamil
جهاد : jihad jehad
كمال : kamal kemal
كريم : karim kareem
ماجد : majed majid maged
مازن : mazen mazin
مروان : marwan
ماهر : maher mahir
مهند : mohannad muhannad mouhannad mohanad muhanad
محسن : mohsen muhsin mohsin
موسى : mousa musa moussa moosa
عيسى : issa isa eissa
نبيل : nabil nabeel
نادر : nader nadir
ناجي : naji nagi
ناصر : nasser naser nasir nacer
نزار : nizar nezar
قاسم : qasim kassem kasem qassem qasem kassim kasim gassem
رامي : rami ramy
رائد : raed raid ra3ed
رياض : riyad riad riyadh ryad
سعيد : saeed said saed saiid
سليم : salim saleem selim
سامر : samer
سمير : samir sameer smir
سامي : sami samy
شادي : shadi chadi shady
سهيل : suhail sohail souhail suhayl
طلال : talal
طارق : tarek tariq tarik tareq
وائل : wael wail wa3el
وليد : walid waleed oualid
ياسر : yasser yaser yasir yassir
يحيى : yahya yehia yahia yahyaa
زاهر : zaher zahir
زكريا : zakaria zakariya zakariyya zakarya
زياد : ziad ziyad zeyad
أنور : anwar anouar
بكر : bakr bakir baker
ذياب/دياب : diab diyab thiab
فواز : fawaz fawwaz
فايز/فائز : fayez faiz fayiz
فيصل : faisal faysal feisal
فؤاد : fouad fuad fuaad
فاضل : fadel fadil
فتحي : fathi fathy fethi
مدحت : medhat midhat mdhat
غازي : ghazi
حبيب : habib habeeb
حيدر : haidar haydar heidar
حكمت : hikmat hekmat
إلياس : ilyas elias ilias elyas
جابر : jaber jabir
جلال : jalal
جمعة : jumaa jomaa juma jumah joumaa
كنان : kenan kinan
لطفي : lutfi lotfi
لؤي : louay luay loai louai lo2ay
معن : maen maan
مهدي : mahdi mehdi
مالك : malek malik
مأمون : mamoun mamun maamoun
منصور : mansour mansur
معاذ : moaz muath muadh moath
مؤيد : muayad moayad muayyad moaiad
منير : munir mounir
مصعب : musab mosab mousab
معتصم : mutasem motasem mutassim moutasem
نضال : nidal nedal
نور : nour nur noor
عبادة : obada ubada oubada
عمران : omran imran
قصي : qusai qussai kusai qusay
ربيع : rabie rabih rabea rabee
رضوان : radwan ridwan redwan
رفيق : rafiq rafik
رأفت : raafat rafat raafat
رامز : ramez ramiz
رشيد : rashid rachid rasheed
سعد : saad sad saed
صادق : sadeq sadek sadiq
صخر : sakher sakhr
صالح : saleh salih saleh
صلاح : salah
سلمان : salman selman
شاكر : shaker shakir chaker
شكري : shukri shoukri choukri
صبحي : subhi sobhi sobhy
صبري : sabri sabry
سفيان : sufian sofian soufiane sufyan
صفوان : safwan
سلطان : sultan soltan
طه : taha
تامر : tamer tamir
توفيق : tawfiq tawfik toufik tofik
تيسير : tayseer taysir tayssir
وسيم : wassim wasim waseem ouassim
واصل : wasel wasil
وجيه : wajih wajeeh
يامن : yamen yamin
يمان : yaman
زيد : zaid zeid zayd
زهير : zuhair zouhair zuheir zoheir
عباس : abbas
عارف : aref arif
بهاء : bahaa baha
بدر : badr bader
داود/داوود : daoud dawood dawud daud daoud
ضرار : dirar derar
حافظ : hafez hafiz
جاسم : jasem jassem jasim jassim
خضر : khader khodr khidr
محي : mohi muhi
مراد : murad mourad morad
نجيب : najib nagib najeeb
نعيم : naim naeem
رجب : rajab ragab
رمضان : ramadan ramadhan
سالم : salem
شريف : sharif cherif shareef
عادل : adel adil
عزت : izzat ezzat
عصام : issam essam isam
إسحاق : ishaq ishak isaac
إدريس : idris edris
أكرم : akram
أشرف : ashraf achraf
أسعد : asaad asad assaad
عبود : aboud abboud
عبدو/عبده : abdo abdou abduh
جورج : george georges jurj
ميشيل : michel michael mishel
حنا : hanna
سمعان : semaan samaan
طوني : tony toni
حاتم : hatem hatim
هلال : hilal helal
إحسان : ihsan ehsan
إيهاب : ihab ehab
كامل : kamel kamil
ممدوح : mamdouh mamduh
منذر : munzer monzer munther mundhir
مجد : majd magd
مجدي : majdi magdi
ناظم : nazem nazim
نايف : nayef naif
نواف : nawaf
قتيبة : qutaiba qutaybah kotaiba
رامح : rameh
صهيب : suhaib sohaib souhaib
تميم : tamim tameem
وضاح : waddah wadah
ياسين : yassin yasin yaseen yacine
زين : zain zein zayn
سامح : sameh samih
شفيق : shafiq chafic shafik chafik
عدي : oday uday odai udai
عروة : urwa orwa
عمرو : amr amro amru
غالب : ghaleb ghalib
فهد : fahd fahad
فريد : farid fareed
قيس : qais kais qays qaiss
كفاح : kifah kefah
لقمان : luqman loqman
مخلص : mukhles mokhles mukhlis
مرهف : murhaf morhaf
معتز : moataz mutaz motaz moutaz mutazz
مهيار : mahyar mihyar
ميلاد : milad
نبهان : nabhan
نصوح : nasouh nasuh
هاشم : hashem hashim hachem
وحيد : wahid waheed
وفيق : wafiq wafik
يزن : yazan
يعرب : yarob yaarob yaarub
يونس : younes yunus younis yunes
أديب : adib adeeb
أمجد : amjad
أنيس : anis anees
أويس : owais uwais ouais
إياس : iyas eyas
بسام : bassam basam
تمام : tammam tamam
ثامر : thamer thamir
جعفر : jaafar jafar jaafer
جودت : jawdat joudat
حارث : hareth harith
حسيب : hasib haseeb
خلدون : khaldoun khaldun
خيري : khairi khairy kheiri
دريد : duraid doraid
راتب : rateb ratib
راشد : rashed
سنان : sinan senan
صابر : saber sabir
صائب : saeb
ضياء : diaa dhiaa
طالب : taleb talib
عاطف : atef atif
عون : aoun awn
عزيز : aziz azeez
فضل : fadl fadhl
فهمي : fahmi fahmy
كنعان : kanaan kenaan
ليث : laith layth leith
محفوظ : mahfouz mahfoud
مختار : mukhtar mokhtar
مرعي : marei mari
مسعود : masoud massoud masud
مفيد : mufid moufid mofid
موفق : mouwafak muwaffaq mowafaq
ناصيف : nassif nasif
نديم : nadim nadeem
نزيه : nazih nazeeh
نشأت : nashat nachat
وسام : wissam wesam wisam
إسكندر : iskandar eskandar
جرجس : jirjis girgis
بطرس : boutros butros
يوحنا : youhanna yuhanna
شربل : charbel sharbel
جوزيف : joseph josef
بولس : boulos bulus
نقولا : nicola nicolas
سركيس : sarkis
كرم : karam
`;

export const FEMALE_NAMES = `
فاطمة : fatima fatma fatemeh fatmeh fatimah fatme
عائشة : aisha aysha aicha aishah ayesha aisheh ayse
خديجة : khadija khadijah khadijeh khadiga hatice
مريم : maryam mariam meryem miriam mariem
زينب : zainab zeinab zaynab zineb
رشا : rasha racha
هبة : hiba heba hibah
رانيا : rania ranya
أمل : amal
هدى : huda houda hoda
إيمان : iman eman imane
لينا : lina leena
ديما : dima deema
ريم : reem rim
سارة : sara sarah
نورة : noura nora nourah
سمر : samar
سميرة : samira sameera
سعاد : suad souad soad
وداد : widad wedad
حنان : hanan
غادة : ghada
لمى : lama
ريما : rima reema
ندى : nada
أسماء : asmaa asma esma
آية : aya aia
دعاء : duaa doaa douaa
إسراء : israa esraa isra
روان : rawan
ياسمين : yasmin yasmine jasmin yasmeen
رزان : razan
فادية : fadia fadiya
نسرين : nisreen nesrin nasrin nisrine
وفاء : wafaa wafa
منال : manal
مها : maha
نجوى : najwa
سلوى : salwa
ليلى : layla leila laila leyla
رنا : rana
علا : ola oula
عبير : abeer abir
بشرى : bushra bouchra
هيفاء : haifa hayfa
جميلة : jamila jamileh
كوثر : kawthar kawsar kaoutar
لبنى : lubna loubna
مي : mai may
نادية : nadia nadiya
رحاب : rehab rihab
سوزان : suzan susan
تهاني : tahani
يسرى : yusra yousra
زهرة : zahra zahraa
أسيل : aseel asil
بسمة : basma basmah
تغريد : taghrid taghreed
جمانة : joumana jumana
حياة : hayat
خلود : kholoud khulud
دانة : dana
دلال : dalal
ربا : ruba roba
رهام : reham riham
روعة : rawaa
ريتا : rita
زينة : zeina zaina zena
سلمى : salma selma
سماح : samah
سهى : suha souha soha
فتحية : fathiya fathia fathieh fethiye
سوسن : sawsan sausan
شذى : shaza shatha
عفاف : afaf
عليا : alia aliya olia
غدير : ghadir ghadeer
فرح : farah
كندة : kinda kenda
لميس : lamis lamees
مرام : maram
ملك : malak
منى : mona muna
ميساء : maysaa maissa
نهى : noha nuha
نوال : nawal
هناء : hanaa hana
يارا : yara
رولا : rola roula
سناء : sanaa sana
فاتن : faten
إخلاص : ikhlas
انتصار : intisar entissar
أماني : amani
بثينة : buthaina bouthaina
حنين : hanin haneen
سحر : sahar
شهد : shahd
صبا : saba
عبلة : abla
غنوة : ghinwa
لارا : lara
نسمة : nesma nisma
هديل : hadeel hadil
وئام : weam wiam
`;

export const FAMILY_NAMES = `
مصري : masri masry misri
حلبي : halabi halaby
حموي : hamwi hamawi
حمصي : homsi himsi
شامي : shami chami
دمشقي : dimashqi demashki
إدلبي : idlibi edlibi
درعاوي : daraawi deraawi
كردي : kurdi kordi
خطيب : khatib khateeb
حريري : hariri
زعبي : zoubi zubi zoabi
شيخ : sheikh shaikh cheikh shaykh
نجار : najjar najar naggar
حداد : haddad hadad
سيد : sayed sayyed seyed
حمود : hammoud hamoud
حجي/حاج : hajj haj hajji
خوري : khoury khouri khuri
بيطار : bitar beitar
رفاعي : rifai rifaai refai
بكري : bakri
حجازي : hijazi hegazi hijazy
جابري : jabri jaberi
حلاق : hallak hallaq
صباغ : sabbagh sabagh
عطار : attar atar
نقيب : naqib nakib naqeeb
طويل : tawil taweel
أتاسي : atassi atasi
قباني : qabbani kabbani
طرابيشي : tarabishi
مارديني : mardini
حلو : helou helo hilu
نصار : nassar
سكر : sukkar sokkar
رحال : rahhal
أسود : aswad
درويش : darwish derwich darwich
بركات : barakat
شعار : shaar chaar
عقاد : akkad aqqad
ديب : deeb dib
ساعاتي : saati
قدسي : qudsi kudsi
تركماني : turkmani
نوري : nouri nuri
جندي : jundi joundi gendi
قصاب : kassab qassab
خباز : khabbaz
صابوني : sabouni saboni
جابي : jabi
زعيم : zaim zaeem
نابلسي : nabulsi naboulsi
مالكي : maliki
شيشكلي : shishakli
دالاتي : dalati
معلم : moallem mualem
سقا : saqqa sakka
حراكي : hiraki harraki
نصر : nasr
سعادة : saadeh saada
حبش : habash
موصلي : mousalli mosuli
جبر : jabr
غنام : ghannam ghanam
شاهين : shahin shaheen chahine
عرابي : arabi orabi
سلامة : salameh salama
عيد : eid
عواد : awwad
يازجي : yazigi yaziji
بكداش : bakdash bekdache
ترك : turk
شعراني : shaarani
حتاحت : hatahet
دهمان : dahman
مقداد : miqdad mekdad
مسالمة : masalmeh masalma
شرع : sharaa
ديري : deiri dairi
رقاوي : raqqawi rakkawi
نعيمي : nuaimi noaimi
شمري : shammari shamari
عنزي : anazi enezi
عكيدي : okaidi
`;

/** عبد + one of God's names: Arabic head (with its article) and Latin spellings of the head. */
export const ABD_COMPOUNDS = `
الرحمن : rahman rahmane rehman rahmen
الله : lah la
القادر : qader kader qadir kadir gader qadeer kadr
العزيز : aziz azeez
الكريم : karim kareem krim
الحميد : hamid hameed
الرزاق : razzaq razak razzak razaq
السلام : salam slam
المجيد : majid majeed mageed
اللطيف : latif lateef
الغني : ghani ghany
الهادي : hadi hady
الوهاب : wahab wahhab
الناصر : nasser naser nasir
الملك : malik malek
الباسط : basit baset basset
الإله : ilah elah
الحكيم : hakim hakeem
الرحيم : rahim raheem
الجليل : jalil jaleel
الفتاح : fattah fatah
الرؤوف : raouf rauf raof
الستار : sattar satar
الحليم : halim haleem
الجبار : jabbar jabar
المنعم : monem moneim munim mounem
المعين : moein muin
الغفور : ghafour ghafur
الصمد : samad
المحسن : mohsen muhsin
الخالق : khaleq khaliq
الواحد : wahed wahid
الجواد : jawad
الباقي : baqi baki
الحي : hay hai
النور : nour nur
`;

/** … الدين compounds: Arabic head and Latin spellings of the head. */
export const DIN_COMPOUNDS = `
نور : nour nur noor
صلاح : salah salaah
علاء : alaa ala
عز : ezz izz ez iz
زين : zein zain zine zin
شمس : shams chams
خير : khair kheir khayr
بدر : badr bader
جمال : jamal gamal djamal
كمال : kamal kemal
سعد : saad sad
محي : mohi muhi mohey muhyi mouhi
نجم : najm nejm
سيف : saif seif sayf
فخر : fakhr fakher
تاج : taj
ضياء : diaa ziaa zia dia
نصر : nasr naser
عماد : emad imad
حسام : husam hussam houssam
بهاء : bahaa baha
شرف : sharaf charaf
`;

/** … الله compounds (other than عبد الله): Arabic head and Latin spellings of the head. */
export const ALLAH_COMPOUNDS = `
فضل : fadl fadel
نصر : nasr
سيف : saif seif
عطا : ata atta
جاد : jad
خير : khair kheir
فتح : fath fat
حمد : hamd
عوض : awad
`;

/**
 * Pet and short forms by which Syrian families name a man or a woman (حمودة for محمد, برهوم for إبراهيم, فطوم for
 * فاطمة), written from general knowledge of Levantine usage. Line format: `Arabic[/Arabic…] > name[/name…]`, the names
 * as their entries above list them. Not listed as names (isListed): a pet form is also a family name (حمودة, قدور),
 * and the lexicon must not absorb spellings its quality is measured on; its Latin spellings are left to the
 * similarity. Two names so related are alike, not one name: their similarity is NICKNAME_SCORE (token.ts). Left out:
 * forms that are registered given names in their own right and stand for many names (عبدو, عبود: any عبد compound;
 * كريم, حميد, لطيف for عبد الكريم …) — brothers are named so, and athar synth's families lost precision to them (dev
 * seed 7: F1 / ceiling −0.0005).
 */
export const NICKNAMES = `
حمودة/حمودي/حمودى > محمد/محمود
حمادة/حمدو > أحمد/حمد
حمود > محمود/محمد
صطوف/سطوف > مصطفى
برهوم > إبراهيم
سمعو > إسماعيل
حسونة/حسون > حسن/حسين
علوش/علوة > علي
قدور > عبد القادر
رزوق > عبد الرزاق
نورو > نور الدين
عمورة > عمر
فطوم/فطومة > فاطمة
خدوج/خدوجة > خديجة
زنوبة/زينو > زينب
مريوم > مريم
عيوش > عائشة
`;
