select count(*) as n from (select 1 from record_name_keys where key = $1 limit $2) t;
-- parameters: ["k:MHMD",4001]
