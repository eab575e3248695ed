package io.github.sparkkpca.kernel;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * The registry of kernel families: the built-in {@link KernelType} constants, then the families of
 * the {@link KernelProvider}s listed in {@code
 * META-INF/services/io.github.sparkkpca.kernel.KernelProvider} on the class path, then those
 * {@linkplain #register registered} at run time. Every kernel name the library accepts, and every
 * list of kernels it prints, comes from here.
 */
public final class KernelFamilies {

  /** Name or alias (lower case) to family, in registration order. */
  private static final Map<String, KernelFamily> BY_NAME = new LinkedHashMap<>();

  private static final List<KernelFamily> FAMILIES = new ArrayList<>();

  static {
    for (KernelType type : KernelType.values()) {
      register(type);
    }
    for (KernelProvider provider : ServiceLoader.load(KernelProvider.class)) {
      for (KernelFamily family : provider.kernels()) {
        register(family);
      }
    }
  }

  private KernelFamilies() {}

  /**
   * Adds a family. Registering the same definition again does nothing.
   *
   * @throws IllegalArgumentException when one of its names is taken by another family
   */
  public static synchronized void register(KernelFamily family) {
    List<String> names = new ArrayList<>();
    names.add(family.paramName());
    names.addAll(family.aliases());
    for (String name : names) {
      KernelFamily taken = BY_NAME.get(key(name));
      if (taken != null && !taken.paramName().equals(family.paramName())) {
        throw new IllegalArgumentException(
            "kernel name '" + name + "' is taken by the " + taken.paramName() + " kernel");
      }
      if (taken != null) {
        return;
      }
    }
    for (String name : names) {
      BY_NAME.put(key(name), family);
    }
    FAMILIES.add(family);
  }

  /** Every registered family, built-in ones first. */
  public static synchronized List<KernelFamily> all() {
    return Collections.unmodifiableList(new ArrayList<>(FAMILIES));
  }

  /** Every name the {@code kernel} parameter accepts, aliases included. */
  public static synchronized List<String> names() {
    return List.copyOf(BY_NAME.keySet());
  }

  /** The canonical names, one per family. */
  public static synchronized List<String> canonicalNames() {
    return FAMILIES.stream().map(KernelFamily::paramName).toList();
  }

  /** One line per family (name, aliases, formula, positive definiteness), for help texts. */
  public static synchronized List<String> descriptions() {
    return FAMILIES.stream().map(KernelFamily::description).toList();
  }

  /** Whether {@code name} names a registered family (case-insensitive). */
  public static synchronized boolean isKnown(String name) {
    return name != null && BY_NAME.containsKey(key(name));
  }

  /**
   * The family of a name or alias (case-insensitive).
   *
   * @throws IllegalArgumentException naming the name and the accepted ones
   */
  public static synchronized KernelFamily parse(String name) {
    KernelFamily family = name == null ? null : BY_NAME.get(key(name));
    if (family == null) {
      throw new IllegalArgumentException(
          "Unknown kernel '" + name + "'; expected one of " + BY_NAME.keySet());
    }
    return family;
  }

  private static String key(String name) {
    return name.trim().toLowerCase(Locale.ROOT);
  }
}
