select "record_id", "key" from "record_name_keys" where "key" in (?, ?) limit ?;
-- parameters: ["k:MHMD","fk:AZM",8000]
