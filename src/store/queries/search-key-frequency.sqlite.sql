select count(*) as n from (select 1 from record_name_keys where key = ? limit ?) t;
-- parameters: ["k:MHMD",4001]
