select "record_id", "key" from "record_name_keys" where "key" in ($1, $2) limit $3;
-- parameters: ["k:MHMD","fk:AZM",8000]
