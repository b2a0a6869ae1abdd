"""The first N games SubgameSolver lost in a results folder's games.csv, as a games.csv
on standard output (`run.sh`'s loss study)."""
import csv
import sys

folder, n = sys.argv[1], int(sys.argv[2])
rows = list(csv.DictReader(open(f"{folder}/games.csv", newline="")))
lost = [
    r
    for r in rows
    if (r["white"] == "SubgameSolver" and r["result"] == "0-1")
    or (r["black"] == "SubgameSolver" and r["result"] == "1-0")
]
out = csv.DictWriter(sys.stdout, fieldnames=list(rows[0].keys()), lineterminator="\n")
out.writeheader()
for r in lost[:n]:
    out.writerow(r)
