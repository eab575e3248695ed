package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.streaming.ModelDirectory;
import java.util.Map;

/**
 * The restart refusals of {@code stream} that the plain "--option stored, not given" wording would
 * get wrong: centring, given by the presence of a flag ({@code --no-center}), and the landmark
 * count and kernel parameters of a restart that takes its landmarks from a model ({@code
 * --landmarks-from}, which sets them from that model without any {@code --landmarks} or {@code
 * --gamma}).
 */
final class RestartRefusals {

  /** The options --landmarks-from sets from its model, in the words of the message. */
  private static final Map<String, String> FROM_MODEL =
      Map.of(
          "numLandmarks", "landmarks",
          "kernel", "kernel",
          "gamma", "gamma",
          "degree", "degree",
          "coef0", "coef0");

  private RestartRefusals() {}

  /**
   * The one-line refusal of a restart whose option differs from the recorded one, or null when the
   * generic wording applies.
   *
   * @param landmarksFrom the restart's {@code --landmarks-from} (null when not given)
   */
  static String message(String modelOut, ModelDirectory.OptionMismatch e, String landmarksFrom) {
    String tail = ", or a new --model-out and --checkpoint";
    if (e.option().equals("centered")) {
      return "--model-out "
          + modelOut
          + (e.stored().equals("true")
              ? " was streamed centred (without --no-center), this restart gives --no-center"
                  + " (uncentred): a restart keeps the model's options; drop --no-center"
              : " was streamed uncentred (with --no-center), this restart is centred (no"
                  + " --no-center): a restart keeps the model's options; add --no-center")
          + tail;
    }
    String what = FROM_MODEL.get(e.option());
    if (what != null && landmarksFrom != null) {
      return "--model-out "
          + modelOut
          + " was streamed with "
          + quantity(what, e.stored())
          + ", but --landmarks-from "
          + landmarksFrom
          + " has "
          + quantity(what, e.given())
          + ": a restart keeps the model's options; give --landmarks-from a model with "
          + quantity(what, e.stored())
          + tail;
    }
    return null;
  }

  private static String quantity(String what, String value) {
    if (value.equals("unset")) {
      return what.equals("landmarks") ? "an unset number of landmarks" : what + " unset";
    }
    return what.equals("landmarks") ? value + " landmarks" : what + " " + value;
  }
}
