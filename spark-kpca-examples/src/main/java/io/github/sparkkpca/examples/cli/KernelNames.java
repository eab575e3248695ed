package io.github.sparkkpca.examples.cli;

import io.github.sparkkpca.kernel.KernelFamilies;
import java.util.Iterator;
import java.util.List;

/**
 * The kernel names the command line accepts, the one list every {@code --kernel} option's help
 * ({@code ${COMPLETION-CANDIDATES}}) and shell completion read: adding a kernel to the library adds
 * it here without an edit.
 */
public final class KernelNames implements Iterable<String> {

  /** The names, aliases included, in the library's order. */
  static List<String> names() {
    return KernelFamilies.names();
  }

  @Override
  public Iterator<String> iterator() {
    return names().iterator();
  }
}
