"""Markdown table of grow's drift and of the grown-vs-batch model eigenvalue difference (JSON summaries)."""
import json
import sys

directory = sys.argv[1] if len(sys.argv) > 1 else "."
print("| landmarks added | m | K_mm eigenvalue drift | ‖VᵀV − I‖_F | K_mm⁺ drift | rank (incr./batch) "
      "| rank-one updates | deflated | recomputations | max model eigenvalue diff / λ₁ |")
print("|---|---|---|---|---|---|---|---|---|---|")
for add in (50, 150, 450):
    g = json.load(open(f"{directory}/grown-{add}.json"))
    b = json.load(open(f"{directory}/batch-{add}.json"))
    d = g["incremental"]
    diff = max(abs(x - y) for x, y in zip(g["eigenvalues"], b["eigenvalues"])) / b["eigenvalues"][0]
    print(f"| {add} | {d['landmarks']} | {d['eigenvalueDrift']:.2e} | {d['orthogonality']:.2e} "
          f"| {d['inverseDrift']:.2e} | {d['rankIncremental']}/{d['rankBatch']} | {d['rankOneUpdates']} "
          f"| {d['deflated']} | {d['recomputations']} | {diff:.2e} |")
