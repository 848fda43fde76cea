select * from "candidate_pairs" where "status" = $1 and ("priority" < $2 or ("priority" = $3 and "id" > $4)) order by "priority" desc, "id" asc limit $5;
-- parameters: ["open",0.5,0.5,"pair-1",50]
