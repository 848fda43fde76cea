select * from "candidate_pairs" where "status" = ? and ("priority" < ? or ("priority" = ? and "id" > ?)) order by "priority" desc, "id" asc limit ?;
-- parameters: ["open",0.5,0.5,"pair-1",50]
