insert into "ledger_rows" ("table_name", "row_id", "idx", "sha256") select j.value ->> 0 as "table_name", j.value ->> 1 as "row_id", j.value ->> 2 as "idx", j.value ->> 3 as "sha256"
    from json_each(?) as j where true order by j.key on conflict ("table_name", "row_id") do update set "idx" = "excluded"."idx", "sha256" = "excluded"."sha256";
-- parameters: ["[[\"records\",\"record-1\",7,\"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\"],[\"records\",\"record-2\",8,\"bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb\"]]"]
