/**
 * How the landmarks of a Nyström fit are chosen: the strategies the {@code landmarkSampling} param
 * names ({@link LandmarkSampling}) and their samplers ({@link LandmarkSampler}: uniform, ridge
 * leverage scores, k-means centres, residual growth).
 *
 * <p>Layer 7: uses the layers below it, up to {@code execution} (the validating scan and the pass
 * helper). Internal: public for the layers above and the examples, no compatibility promise.
 */
package io.github.sparkkpca.landmarks;
