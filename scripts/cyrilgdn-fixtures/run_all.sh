#!/bin/bash
W=${FIXTURE_WORKDIR:?set FIXTURE_WORKDIR to the scratch directory}
cd $W/cases
: > $W/summary.txt
for d in */*/; do
  c=${d%/}
  P=10; [ -f $c/parallelism.txt ] && P=$(sed -n 's/PARALLELISM=//p' $c/parallelism.txt)
  r=$(PARALLELISM=$P $W/bin/run_case.sh $c)
  l=$($W/bin/${LEFTOVERS:-leftovers.sh} | tr '\n' ' ')
  echo "$c p=$P $r ${l:+LEFTOVERS: $l}" | tee -a $W/summary.txt
done
