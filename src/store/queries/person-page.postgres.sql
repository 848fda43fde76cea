with l as materialized (
        select id, record_id, person_id, linked_at, linked_by, basis, decision_id, note
        from record_links where person_id = $1 and unlinked_at is null)
      select p.id, p.created_at,
        coalesce((select json_agg(x order by x.link_linked_at, x.link_id) from (
          select r.*, s.name as source_name, l.person_id as person_id, l.id as link_id,
            l.linked_at as link_linked_at, l.linked_by as link_linked_by, l.basis as link_basis,
            l.decision_id as link_decision_id, l.note as link_note
          from l
          join records r on r.id = l.record_id
          join sources s on s.id = r.source_id) x), '[]') as records,
        coalesce((select json_agg(x) from (
          select * from events where person_id = p.id
          union all
          select e.* from events e join l on l.record_id = e.record_id
          where e.person_id is distinct from p.id) x), '[]') as events,
        coalesce((select json_agg(x order by x.created_at, x.id) from (
          select * from relations where person_a = p.id
          union all
          select * from relations where person_b = p.id and person_a <> p.id) x), '[]') as relations,
        coalesce((select json_agg(x) from (
          select * from assertions where person_id = p.id
          union all
          select a.* from assertions a join l on l.record_id = a.record_id
          where a.person_id is distinct from p.id) x), '[]') as assertions,
        coalesce((select json_agg(x order by x.proposed_at) from (
          select id, evidence_id, status, proposed_at from identifications where person_id = p.id) x), '[]')
          as identifications
      from persons p where p.id = $2;
-- parameters: ["person-1","person-1"]
