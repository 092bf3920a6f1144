// The server's heap over JMX (benchmarks): used, max, and the old generation's use after
// the last collection (null before the first one).
// params: none
// returns: used, max, old_after_gc
CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes
WITH attributes.HeapMemoryUsage.value.properties AS heap
OPTIONAL CALL dbms.queryJmx('java.lang:type=MemoryPool,name=G1 Old Gen') YIELD attributes
RETURN heap.used AS used, heap.max AS max,
       attributes.CollectionUsage.value.properties.used AS old_after_gc
