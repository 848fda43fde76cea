insert into ledger_rows (table_name, row_id, idx, sha256)
        select * from unnest($1::text[], $2::text[],
          $3::bigint[], $4::text[])
        on conflict (table_name, row_id) do update set idx = excluded.idx, sha256 = excluded.sha256;
-- parameters: [["records","records"],["record-1","record-2"],[7,8],["aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa","bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb"]]
