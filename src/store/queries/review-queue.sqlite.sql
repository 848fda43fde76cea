select * from "candidate_pairs" where "status" = ? and ("probability" < ? or ("probability" = ? and "id" > ?)) order by "probability" desc, "id" asc limit ?;
-- parameters: ["open",0.5,0.5,"pair-1",50]
