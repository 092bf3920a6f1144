// PREMem: memory fragments per category (factual, experiential, subjective) with examples.
// params: $space
// returns: category, fragments, examples
// requires: Fragment
MATCH (f:Fragment {space: $space})
WITH f.category AS category, collect(f) AS found
RETURN category, size(found) AS fragments,
       [x IN found[..3] | coalesce(x.key + ' = ' + x.value, x.text)] AS examples
ORDER BY fragments DESC, category
