/** Arabic for every English source string used in the interface. */
export const ar: Record<string, string> = {
  athar: 'أثر',
  'Keeping the evidence of Syria’s detainees and disappeared, and bringing families and that evidence together.':
    'نحفظ أدلة معتقلي سوريا ومفقوديها، ونجمع بين العائلات وهذه الأدلة.',
  Language: 'اللغة',
  'Report a missing relative': 'الإبلاغ عن قريب مفقود',
  'Check the status of a report': 'الاستعلام عن حالة بلاغ',
  'Staff sign-in': 'دخول فريق العمل',
  'This service is free. Nobody may ask you for money for information about your relative.':
    'هذه الخدمة مجانية. لا يحق لأحد أن يطلب منك مالاً مقابل معلومات عن قريبك.',
  'Service status': 'حالة الخدمة',
  'Checking…': 'جارٍ التحقق…',
  Running: 'تعمل',
  Unavailable: 'غير متاحة',
};
