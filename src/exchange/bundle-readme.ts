import type { BundleDescription } from './bundle-layout.js';

/**
 * README.txt of a court bundle, in Arabic and English: what the bag is and how to check it with standard tools
 * only. A tag file (outside data/), listed in the tag manifest.
 */
export function bundleReadme(d: BundleDescription, verifierKey: string): string {
  const scope =
    d.scope.kind === 'person'
      ? { en: `person ${d.scope.personId}`, ar: `الشخص ${d.scope.personId}` }
      : d.scope.kind === 'ingest_run'
        ? { en: `ingest run ${d.scope.ingestRunId}`, ar: `دفعة الإدخال ${d.scope.ingestRunId}` }
        : {
            en: `${d.scope.evidenceIds.length} evidence items`,
            ar: `${d.scope.evidenceIds.length} من مواد الأدلة`,
          };
  const graphic = d.items.filter((i) => i.graphic).length;
  return `حزمة أدلة من أثر (athar) — للمحاكم وجهات التحقيق
=====================================================

ما هذه الحزمة
-------------
هذه حزمة BagIt 1.0 (RFC 8493) أعدّها نظام أثر في ${d.createdAt}، ونطاقها: ${scope.ar}.
المعرّف: ${d.id}. طلبها: ${d.requester}. وافق عليها: ${d.approver ?? '—'}. الغرض: ${d.purpose}.

- data/originals/  الملفات الأصلية كما استُلمت، بايتًا ببايت، واسم كل ملف هو بصمته SHA-256.
- data/items/      بيانات كل مادة (EXIF، بصمة PDQ، التعليقات، أرقام الجثث، السجلات والتعرّفات المرتبطة بها).
- data/custody/    سلسلة الحيازة لكل مادة.
- data/registry/   السجلات والأشخاص والأحداث والادعاءات المرتبطة.
- data/log/        قيود السجل غير القابل للتلاعب، وإثبات تضمين لكل قيد، ونقطة التحقق الموقّعة، ومفتاح التحقق.
- data/export/     قيود حيازة التصدير لهذه الحزمة وإثباتاتها، وأحدث نقطة تحقق، وإثبات الاتساق إليها.
- data/graphic.txt المواد المصنّفة صادمة (${graphic} من ${d.items.length}): الأصول تبقى أصولًا، فاحذر عند فتحها.

كيف تتحقق منها بأدوات معيارية
---------------------------
1. سلامة الملفات: من داخل مجلد الحزمة نفّذ
     sha256sum -c manifest-sha256.txt
     sha256sum -c tagmanifest-sha256.txt
   أو أي أداة تحقق من BagIt، مثل: bagit.py --validate <المجلد>
2. مفتاح التحقق في data/log/verifier-key.txt. قارنه بالمفتاح الذي نشره الأرشيف أو سلّمه إليك بطريق آخر:
     ${verifierKey}
3. نقطتا التحقق data/log/checkpoint.txt و data/export/latest-checkpoint.txt ملاحظتان موقّعتان (c2sp.org/signed-note،
   Ed25519)؛ يتحقق منهما أي عميل tlog وفق C2SP (مثل golang.org/x/mod/sumdb/note).
4. كل سطر في data/log/inclusion-proofs.jsonl إثبات تضمين RFC 9162 لقيد في الشجرة ذات الحجم المذكور في
   checkpoint.txt (مثل tlog.CheckRecord)، و data/export/consistency-proof.json إثبات اتساق منها إلى أحدث نقطة تحقق.
5. قيد الإدخال custody.ingested لكل ملف أصلي يحمل بصمته SHA-256، وبصمات الصفوف في ملفات JSON تطابق ما يشهد له السجل.
6. قيود التصدير في data/export/export-events.json تسجّل بصمة محتوى هذه الحزمة، وهي:
     grep -v '  data/export/' manifest-sha256.txt | sha256sum
   أو ببساطة: athar bundle verify <المجلد أو الملف> --key <المفتاح>  (بلا قاعدة بيانات ولا شبكة).

---------------------------------------------------------------------

athar evidence bundle — for courts and investigators
=====================================================

What this is
------------
A BagIt 1.0 bag (RFC 8493) made by athar at ${d.createdAt}, of ${scope.en}.
Id: ${d.id}. Requested by: ${d.requester}. Approved by: ${d.approver ?? '—'}. Purpose: ${d.purpose}.

- data/originals/  the original files as received, byte for byte, each named by its SHA-256.
- data/items/      one metadata file per item (EXIF, PDQ hash, annotations, body labels, the records and
                   identifications it belongs to).
- data/custody/    each item's chain of custody.
- data/registry/   the records, persons, events and claims concerned.
- data/log/        the tamper-evident log's entries for all of the above, an inclusion proof of each against the
                   signed checkpoint there, and the log's verifier key.
- data/export/     this bag's own export, logged as custody events after its content was fixed: the events, their
                   proofs, the checkpoint signed after them and a consistency proof to it.
- data/graphic.txt the items marked graphic (${graphic} of ${d.items.length}): originals stay originals; open with care.

How to check it with standard tools
-----------------------------------
1. Integrity: inside the bag's folder run
     sha256sum -c manifest-sha256.txt
     sha256sum -c tagmanifest-sha256.txt
   or any BagIt validator, e.g. bagit.py --validate <folder>.
2. The verifier key is in data/log/verifier-key.txt. Compare it with the key the archive published or gave you
   by another channel:
     ${verifierKey}
3. data/log/checkpoint.txt and data/export/latest-checkpoint.txt are signed notes (c2sp.org/signed-note, Ed25519,
   c2sp.org/tlog-checkpoint); any C2SP tlog client checks them (e.g. golang.org/x/mod/sumdb/note).
4. Each line of data/log/inclusion-proofs.jsonl is an RFC 9162 inclusion proof of one entry in the tree of
   checkpoint.txt's size (e.g. tlog.CheckRecord); data/export/consistency-proof.json proves the latest checkpoint
   extends it (tlog.CheckTree).
5. Each original's custody.ingested entry names its SHA-256; the rows in the JSON files digest to what the
   entries vouch for (docs/ledger.md of athar: "Row digest").
6. The export events in data/export/export-events.json log this bag's content digest, which is
     grep -v '  data/export/' manifest-sha256.txt | sha256sum
   Or simply: athar bundle verify <folder or file> --key <key>  (no database, no network).
`;
}
