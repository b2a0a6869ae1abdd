#!/usr/bin/env python3
"""BayesElo's own algorithm, written out from its source, to check fow's ratings.

Reads a games.csv (white, black, result columns) and prints the ratings that BayesElo's
`readpgn; elo; prior 2; mm 1 1` computes, following Remi Coulom's source:
CCondensedResults::AddPrior (prior/4 / N_i * n_ij virtual draws added to both colour
arrangements of each pair, for each of the two players) and
CBradleyTerry::MinorizationMaximization with UpdateGammas, UpdateThetaW and UpdateThetaD
(all gammas and thetas start at 1; stop when the largest relative change is below
epsilon). Ratings are 400 log10(gamma) minus their average; the scaled column
multiplies them by 4x / (1 + x)^2, x = 10^(-eloDraw / 400), the scale BayesElo sets
after `mm`. Standard library only: python3 bayeselo_mm.py GAMES.csv
"""
import csv
import math
import sys


def condensed(path):
    """Per ordered pair (i, j), i's results as White (w, d, l) and as Black."""
    names, games = [], []
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            for p in (row["white"], row["black"]):
                if p not in names:
                    names.append(p)
            games.append((names.index(row["white"]), names.index(row["black"]), row["result"]))
    n = len(names)
    # cr[i][j] = [w_ij, d_ij, l_ij, w_ji, d_ji, l_ji, true_games]: _ij with i White.
    cr = [[None] * n for _ in range(n)]
    for w, b, result in games:
        for i, j in ((w, b), (b, w)):
            if cr[i][j] is None:
                cr[i][j] = [0.0] * 7
        cw, cb = cr[w][b], cr[b][w]
        cw[6] += 1
        cb[6] += 1
        k = {"1-0": 0, "1/2-1/2": 1, "0-1": 2}[result]
        cw[k] += 1
        cb[3 + k] += 1
    return names, cr


def add_prior(cr, prior):
    n = len(cr)
    true_games = [sum(c[6] for c in row if c) for row in cr]
    for i in range(n):
        p = prior * 0.25 / true_games[i]
        for j in range(n):
            if cr[i][j] is None:
                continue
            this = p * cr[i][j][6]
            for c in (cr[i][j], cr[j][i]):
                c[1] += this
                c[4] += this


def mm(cr, epsilon=1e-13):
    n = len(cr)
    gamma, tw, td = [1.0] * n, 1.0, 1.0
    opp = [[j for j in range(n) if cr[i][j]] for i in range(n)]
    for _ in range(1_000_000):
        nxt = gamma[:]
        for i in reversed(range(n)):
            a = b = 0.0
            for j in opp[i]:
                w, d, l, wj, dj, lj, _g = cr[i][j]
                g = nxt[j] if j > i else gamma[j]
                a += w + d + lj + dj
                b += ((d + w) * tw / (tw * gamma[i] + td * g)
                      + (d + l) * td * tw / (td * tw * gamma[i] + g)
                      + (dj + wj) * td / (tw * g + td * gamma[i])
                      + (dj + lj) / (td * tw * g + gamma[i]))
            nxt[i] = a / b
        diff = max(abs(x - y) / (x + y) for x, y in zip(nxt, gamma))
        gamma = nxt
        num = den = 0.0
        for i in range(n):
            for j in opp[i]:
                w, d, l = cr[i][j][:3]
                num += w + d
                den += ((d + w) * gamma[i] / (tw * gamma[i] + td * gamma[j])
                        + (d + l) * td * gamma[i] / (td * tw * gamma[i] + gamma[j]))
        new_tw = num / den
        diff, tw = max(diff, abs(tw - new_tw)), new_tw
        num = den = 0.0
        for i in range(n):
            for j in opp[i]:
                w, d, l = cr[i][j][:3]
                num += d
                den += ((d + w) * gamma[j] / (tw * gamma[i] + td * gamma[j])
                        + (d + l) * tw * gamma[i] / (td * tw * gamma[i] + gamma[j]))
        c = num / den
        new_td = c + math.sqrt(c * c + 1)
        diff, td = max(diff, abs(td - new_td)), new_td
        if diff < epsilon:
            break
    elo = [400 * math.log10(g) for g in gamma]
    mean = sum(elo) / n
    return [e - mean for e in elo], 400 * math.log10(tw), 400 * math.log10(td)


def main():
    names, cr = condensed(sys.argv[1])
    add_prior(cr, 2.0)
    elo, advantage, draw = mm(cr)
    x = 10 ** (-draw / 400)
    scale = 4 * x / (1 + x) ** 2
    print(f"eloAdvantage {advantage:.3f}  eloDraw {draw:.3f}  scale {scale:.6f}")
    print(f"{'player':<24}{'elo':>10}{'scaled':>10}")
    for name, e in sorted(zip(names, elo), key=lambda t: -t[1]):
        print(f"{name:<24}{e:>10.2f}{e * scale:>10.2f}")


if __name__ == "__main__":
    main()
