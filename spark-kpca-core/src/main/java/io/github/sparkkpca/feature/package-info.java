/**
 * Explicit feature maps φ: R^d → R^r whose inner products approximate a kernel (Nyström, random
 * Fourier features), the readouts Aᵀφ(x) in the cheapest form each map allows, the kernel expansion
 * form over support points, the sufficient statistics of the features (n, φ̄, scatter, Σk(x, x))
 * and the statistics route of a Nyström fit.
 *
 * <p>Layer 3: uses {@code linalg} and {@code kernel}. Internal: public for the layers above and the
 * examples, no compatibility promise.
 */
package io.github.sparkkpca.feature;
