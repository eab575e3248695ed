/**
 * The on-disk formats: stage metadata in the layout of Spark's {@code DefaultParamsWriter} ({@link
 * Persistence}, {@link StageWriter}), a model's fitted state in Parquet tables with one codec per
 * feature map ({@link ModelData}), the table of model kinds ({@link ModelKind}: kind → codec, model
 * class, reader, export layout), the plain export bundle ({@link ModelExport}) and outputs that
 * replace only an earlier result of the same kind ({@link SafeOutput}).
 *
 * <p>Layer 8: uses the layers below it, never {@code ml}: the model classes are named in {@link
 * ModelKind}, and models are read through {@link FittedModel}. Public API: {@link ModelExport},
 * {@link ModelKind} and {@link FittedModel}; the rest is internal (public for {@code ml}, {@code
 * streaming} and the examples, no compatibility promise).
 */
package io.github.sparkkpca.persistence;
