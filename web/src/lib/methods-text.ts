/**
 * The methods page of the estimate (/estimate/methods), in Arabic and English: what the number means, what it assumes
 * and when not to trust it, in plain words for families, staff and journalists. Written with the estimation core
 * (docs/estimation.md explains the statistics); this file is the one place the page's text lives.
 */

export interface MethodsBlock {
  p?: string;
  list?: string[];
  numbered?: { term: string; text: string }[];
}

export interface MethodsText {
  title: string;
  sections: { heading: string; blocks: MethodsBlock[] }[];
}

export const methodsText: Record<'en' | 'ar', MethodsText> = {
  en: {
    title: 'How many are still missing? How athar estimates the number no list has recorded',
    sections: [
      {
        heading: 'What the number means',
        blocks: [
          {
            p: 'Every list of the detained and disappeared is incomplete. When several organisations keep lists separately, some people appear on more than one. How much the lists overlap tells how much they miss: if two lists made separately share few names, each is missing many people; if they share most, few are missing. Multiple systems estimation turns these overlaps into an estimate of the total — the people on at least one list and the people on none — with a range that shows how sure it is.',
          },
          {
            p: 'The estimate is not a count, and it names no one. It says: given these lists, and if the assumptions below hold, the total is probably between the two ends of the range. A 95% range means that ranges made this way contain the true number about 95 times in 100 — when the assumptions hold. athar gives two estimates made in different ways (log-linear models and latent classes); when they agree, that is some reassurance; when they do not, at least one set of assumptions is wrong.',
          },
        ],
      },
      {
        heading: 'What it assumes',
        blocks: [
          {
            numbered: [
              {
                term: 'One closed group',
                text: 'The lists describe the same people over the same period and place — for example, people detained from Homs between 2012 and 2014. Lists of different periods, or people counted in one group on one list and another group on another, break this.',
              },
              {
                term: 'The right people matched',
                text: 'That we know which records on different lists are the same person. Matches missed make the estimate too high; wrong matches make it too low. When the matching is uncertain, athar can carry that uncertainty into the range.',
              },
              {
                term: 'Dependence between lists, within limits',
                text: 'Lists are rarely independent: one may be copied from another, organisations share information, a family that reports to one also reports to another. The log-linear models allow pairs of lists to depend on each other; this needs at least three lists.',
              },
              {
                term: 'Some people are harder to find',
                text: 'Some people are far more likely than others to be on any list (well known, from cities, with family abroad). The latent-class model is made for this. But people whom no list could reach — whole families taken, areas no organisation reached — cannot be seen by any method: then the estimate is a floor, not the total.',
              },
            ],
          },
        ],
      },
      {
        heading: 'When not to trust it',
        blocks: [
          {
            list: [
              'Fewer than three lists, or lists that never overlap: athar gives no number.',
              'A list that is a copy of another, or contained in it: they are not separate looks.',
              'The two estimates disagree (their ranges do not overlap).',
              'Few overlaps (tens of people): the range is wide, and less certain than it looks.',
              'The range has no upper end.',
              'The group is not closed, or groups are mixed.',
              'Small groups (one branch in one month) are less reliable than large ones, and a total summed over groups is approximate.',
              'Never about one person: the estimate says nothing about whether any particular person is alive, dead or detained.',
            ],
          },
        ],
      },
    ],
  },
  ar: {
    title: 'كم ما زالوا مفقودين؟ كيف يقدّر «أثر» عدد من لم تسجّلهم أي قائمة',
    sections: [
      {
        heading: 'ماذا يعني الرقم',
        blocks: [
          {
            p: 'كل قائمة بأسماء المعتقلين والمختفين ناقصة. وحين تحتفظ عدة منظمات بقوائمها كلٌّ على حدة، يظهر بعض الأشخاص في أكثر من قائمة. ومقدار التداخل بين القوائم يدلّ على مقدار ما يفوتها: فإن كانت قائمتان أُعدّت كلٌّ منهما على حدة لا تشتركان إلا في أسماء قليلة، فكلٌّ منهما يفوتها كثيرون؛ وإن اشتركتا في معظم الأسماء، فالفائت قليل. ويحوّل «تقدير الأنظمة المتعددة» هذا التداخل إلى تقدير للعدد الكلي — من ورد في قائمة واحدة على الأقل ومن لم يرد في أي قائمة — مع مدى يبيّن مقدار الثقة فيه.',
          },
          {
            p: 'التقدير ليس عدًّا، ولا يسمّي أحدًا. إنه يقول: بالنظر إلى هذه القوائم، وإن صحّت الافتراضات أدناه، فالعدد الكلي يقع على الأرجح بين طرفي المدى. ومعنى مدى 95٪ أن المديات المحسوبة بهذه الطريقة تحوي العدد الحقيقي في نحو 95 مرة من كل 100 — إذا صحّت الافتراضات. ويعطي «أثر» تقديرين بطريقتين مختلفتين (النماذج اللوغاريتمية الخطية ونموذج الفئات الكامنة)؛ فإن اتفقا كان في ذلك بعض الطمأنينة، وإن اختلفا فافتراضات أحدهما على الأقل لا تصح.',
          },
        ],
      },
      {
        heading: 'ما يفترضه',
        blocks: [
          {
            numbered: [
              {
                term: 'مجموعة واحدة مغلقة',
                text: 'أن تصف القوائم الأشخاص أنفسهم في الفترة نفسها والمكان نفسه — مثلًا: من اعتُقلوا من حمص بين 2012 و2014. والقوائم من فترات مختلفة، أو الأشخاص المعدودون في مجموعة في قائمة وفي مجموعة أخرى في قائمة ثانية، يخلّون بذلك.',
              },
              {
                term: 'مطابقة الأشخاص الصحيحة',
                text: 'أن نعرف أي السجلات في القوائم المختلفة تعود إلى الشخص نفسه. المطابقات الفائتة تجعل التقدير أعلى مما ينبغي، والمطابقات الخاطئة تجعله أدنى. وحين تكون المطابقة غير مؤكدة، يستطيع «أثر» أن يحمل عدم اليقين هذا إلى المدى.',
              },
              {
                term: 'اعتماد القوائم بعضها على بعض، في حدود',
                text: 'نادرًا ما تكون القوائم مستقلة: فقد تُنسخ قائمة من أخرى، وتتبادل المنظمات المعلومات، والعائلة التي تبلّغ جهةً تبلّغ غيرها أيضًا. وتسمح النماذج اللوغاريتمية الخطية بأن يعتمد كل زوج من القوائم أحدهما على الآخر، ويلزم لذلك ثلاث قوائم على الأقل.',
              },
              {
                term: 'بعض الناس أصعب وصولًا',
                text: 'بعض الأشخاص أرجح بكثير من غيرهم أن يرِدوا في أي قائمة (المعروفون، وأهل المدن، ومن لهم أقارب في الخارج)، ولهذا وُضع نموذج الفئات الكامنة. أما من لا تستطيع أي قائمة أن تبلغهم — عائلات أُخذت بأكملها، ومناطق لم تصلها أي منظمة — فلا تراهم أي طريقة: ويكون التقدير عندئذٍ حدًّا أدنى لا العدد الكلي.',
              },
            ],
          },
        ],
      },
      {
        heading: 'متى لا يُوثق به',
        blocks: [
          {
            list: [
              'أقل من ثلاث قوائم، أو قوائم لا تتداخل أبدًا: لا يعطي «أثر» رقمًا.',
              'قائمة منسوخة من أخرى أو محتواة فيها: فليستا نظرتين مستقلتين.',
              'اختلاف التقديرين (لا يتقاطع مداهما).',
              'تداخل قليل (عشرات الأشخاص): يكون المدى واسعًا، وأقل يقينًا مما يبدو.',
              'مدى بلا حدٍّ أعلى.',
              'مجموعة غير مغلقة، أو مجموعات مختلطة.',
              'المجموعات الصغيرة (فرع واحد في شهر واحد) أقل موثوقية من الكبيرة، والمجموع على المجموعات تقريبي.',
              'ولا يصلح أبدًا للحكم على شخص واحد: فالتقدير لا يقول شيئًا عن أن شخصًا بعينه حيّ أو متوفى أو معتقل.',
            ],
          },
        ],
      },
    ],
  },
};
