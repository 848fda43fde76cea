select "id", "created_at" from "persons" where "id" = ?;
-- parameters: ["person-1"]

select r.*, s.name as source_name, l.person_id as person_id,
      l.id as link_id, l.linked_at as link_linked_at, l.linked_by as link_linked_by, l.basis as link_basis,
      l.decision_id as link_decision_id, l.note as link_note
    from record_links l
    join records r on r.id = l.record_id
    join sources s on s.id = r.source_id
    where l.person_id = ? and l.unlinked_at is null
    order by l.linked_at, l.id;
-- parameters: ["person-1"]

select * from "events" where "person_id" = ? union select "e".* from "events" as "e" inner join "record_links" as "l" on "l"."record_id" = "e"."record_id" where "l"."person_id" = ? and "l"."unlinked_at" is null;
-- parameters: ["person-1","person-1"]

select * from "relations" where ("person_a" = ? or "person_b" = ?) order by "created_at", "id";
-- parameters: ["person-1","person-1"]

select * from "assertions" where "person_id" = ? union select "a".* from "assertions" as "a" inner join "record_links" as "l" on "l"."record_id" = "a"."record_id" where "l"."person_id" = ? and "l"."unlinked_at" is null;
-- parameters: ["person-1","person-1"]

select "id", "evidence_id", "status" from "identifications" where "person_id" = ? order by "proposed_at";
-- parameters: ["person-1"]
