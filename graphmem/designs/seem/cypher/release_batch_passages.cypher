// Rebuilding passages: frames of earlier batches (and their events) let go of them; the
// re-run consolidates them again. Runs after seem.drop_batch_frames.
// params: $space, $ids
// returns: released
UNWIND $ids AS pid
MATCH (:Passage {space: $space, id: pid})<-[r:FROM]-(x)
WHERE x:EventFrame OR x:Event
DELETE r
RETURN count(r) AS released
