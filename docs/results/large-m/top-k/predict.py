"""The scaling model's predictions for the top-k route at n = 10^8, d = 100, k = 50 (docs/scaling.md, section
4b), beside the whitened route's, as a Markdown table. The model (docs/scaling.md and docs/gram-route.md):

- executors, per pass: n·(2md + 4ml) flops (kernel GEMM and the two panel products, l = k + 10), at R·eta per
  core (R = 45 GFLOP/s, eta = 0.75, as the whitened table); P passes (8: the fits measured here took 6 and 7);
- driver: K_mm's m²d flops and its tiled Cholesky m³/3 at R_driver per thread over T threads (8 threads of
  30 GFLOP/s), plus per pass the two products with W, 2m²l flops (triangular solves on the tiles);
- memory: per executor of C = 8 tasks 8(b·m + b·l + 2·m·l)·C + 8·m·d + 8·m·l + 16·m·l bytes (b = 256); the driver
  the tiles (4m²·8/8 ≈ 8·m²/2 bytes), the Krylov basis 8·(2P + 4)·m·l and the landmarks 2·8·m·d;
- whitened route: F = n·(2md + 2m²), executor memory 8·(2m² + md) + 8·C·m², driver 5m² doubles (section 4).

    python3 predict.py
"""

R, ETA, N, D, K = 45e9, 0.75, 1e8, 100, 50
L = K + 10
PASSES = 8
B = 256
C = 8
DRIVER = 8 * 30e9
CLUSTERS = [(10, 8), (50, 8), (125, 8)]
GIB = 1 << 30


def duration(seconds: float) -> str:
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def row(m: int) -> str:
    per_pass = N * (2 * m * D + 4 * m * L)
    top_k = PASSES * per_pass
    whitened = N * (2 * m * D + 2 * m * m)
    times = []
    for executors, cores in CLUSTERS:
        rate = executors * cores * R * ETA
        times.append(f"{duration(top_k / rate)} ({duration(whitened / rate)})")
    driver = (m * m * D + m**3 / 3 + PASSES * 2 * m * m * L) / DRIVER
    executor = 8 * (B * m + B * L + 2 * m * L) * C + 8 * m * D + 24 * m * L
    executor_whitened = 8 * (2 * m * m + m * D) + 8 * C * m * m
    driver_bytes = 4 * m * m + 8 * (2 * PASSES + 4) * m * L + 16 * m * D
    return (
        f"| {m:,} | {top_k:.1e} ({whitened:.1e}) | "
        + " | ".join(times)
        + f" | {duration(driver)} | {executor / GIB:.2f} GiB ({executor_whitened / GIB:.0f} GiB) | "
        f"{driver_bytes / GIB:.1f} GiB |"
    )


def main() -> None:
    print(
        "| m | executor flops, top-k (whitened) | 10 × 8 cores | 50 × 8 cores | 125 × 8 cores "
        "| driver | executor memory, C = 8 | driver memory |"
    )
    print("|---|---|---|---|---|---|---|---|")
    for m in (10_000, 20_000, 30_000, 50_000, 100_000):
        print(row(m))


if __name__ == "__main__":
    main()
