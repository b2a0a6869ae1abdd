"""SubgameSolver's belief over its lost games, as the web app's belief overlay shows it:
at each of its turns, how many boards it believed, whether the true board was among
them, and the probability of the move it played. Needs `fow web results/strength/subgame
--listen 127.0.0.1:8099` running; reads the first N lost games of thesis-400 (run.sh's
loss study) and prints a summary. Usage: python3 overlay.py N [RUN PLAYER], RUN a folder
under results/strength/subgame (default thesis-400), PLAYER its SubgameSolver's spec
(default SubgameSolver), and `won` to read its won games instead."""
import csv
import json
import sys
import urllib.request

N = int(sys.argv[1]) if len(sys.argv) > 1 else 40
RUN = sys.argv[2] if len(sys.argv) > 2 else "thesis-400"
ME = sys.argv[3] if len(sys.argv) > 3 else "SubgameSolver"
BASE = "http://127.0.0.1:8099"
rows = list(csv.DictReader(open(f"results/strength/subgame/{RUN}/games.csv", newline="")))
WON = len(sys.argv) > 4 and sys.argv[4] == "won"
white_lost, black_lost = ("1-0", "0-1") if WON else ("0-1", "1-0")
lost = [
    r
    for r in rows
    if (r["white"] == ME and r["result"] == white_lost)
    or (r["black"] == ME and r["result"] == black_lost)
][:N]

turns = truth_in = last_truth_in = 0
sizes, probs, last_probs = [], [], []
for r in lost:
    side = "white" if r["white"] == ME else "black"
    plies = int(r["plies"])
    first = 1 if side == "white" else 2
    game_turns = []
    for ply in range(first, plies + 1, 2):
        # The overlay at ply p - 1 shows the belief before the move at ply p.
        url = f"{BASE}/api/belief?r=0/{RUN}&g={r['id']}&side={side}&ply={ply - 1}"
        t = json.load(urllib.request.urlopen(url)).get("turn")
        if t is None or t["ply"] + 1 != ply:
            continue
        game_turns.append(t)
    for t in game_turns:
        turns += 1
        truth_in += t["truth_in"]
        sizes.append(t["boards"])
        if t.get("subgame") and t["subgame"]["boards"] > 0:
            probs.append(t["subgame"]["probability"])
    if game_turns:
        last = game_turns[-1]
        last_truth_in += last["truth_in"]
        if last.get("subgame") and last["subgame"]["boards"] > 0:
            last_probs.append(last["subgame"]["probability"])

sizes.sort()
print(f"{len(lost)} {'won' if WON else 'lost'} games, {turns} turns of {ME} replayed")
print(f"true board among the believed boards: {truth_in}/{turns} turns ({100 * truth_in / max(turns, 1):.1f}%)")
print(f"at its last move of each game: {last_truth_in}/{len(lost)}")
print(f"boards believed: median {sizes[len(sizes) // 2]}, max {sizes[-1]}")
if probs:
    print(f"turns with a subgame: {len(probs)}; mean probability of the move played {sum(probs) / len(probs):.3f}")
if last_probs:
    print(f"its last move, when from a subgame: {len(last_probs)} games, mean probability {sum(last_probs) / len(last_probs):.3f}")
