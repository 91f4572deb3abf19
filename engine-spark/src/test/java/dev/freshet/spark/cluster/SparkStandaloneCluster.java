package dev.freshet.spark.cluster;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.apache.spark.launcher.JavaModuleOptions;

/**
 * A real Spark standalone cluster on 127.0.0.1 for a test class: one master and some workers, each
 * a JVM of its own started from the test JVM's java and class path, so no Spark distribution is
 * needed. A driver joins it in client mode with {@link #masterUrl()} and
 * {@link #executorClassPath()}.
 *
 * <pre>{@code
 * try (SparkStandaloneCluster cluster = SparkStandaloneCluster.start(dir, 2)) {
 *   SparkSession spark = SparkSession.builder().master(cluster.masterUrl())
 *       .config("spark.executor.extraClassPath", cluster.executorClassPath()) ... .getOrCreate();
 *   cluster.killWorker(0);   // SIGKILL; its executors exit after it
 * }
 * }</pre>
 */
public final class SparkStandaloneCluster implements AutoCloseable {
  private static final Duration START_DEADLINE = Duration.ofSeconds(90);
  private static final String MASTER = "org.apache.spark.deploy.master.Master";
  private static final String WORKER = "org.apache.spark.deploy.worker.Worker";
  // Daemons only schedule: small heaps, C1 alone and the serial collector leave the two cores to
  // the executors and the driver. Their classes are the build's own jars, loaded by thousands:
  // verifying their bytecode in every daemon costs CPU and proves nothing here.
  private static final List<String> DAEMON_JVM_FLAGS = List.of("-Xmx256m",
      "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:+UnlockDiagnosticVMOptions",
      "-XX:-BytecodeVerificationRemote");

  private final Path dir;
  private final String classPath;
  private final int masterPort;
  private final List<Process> daemons = new ArrayList<>();
  private final List<Process> workers = new ArrayList<>();
  private final List<Process> killed = new ArrayList<>();
  private final ProcessReaper reaper = new ProcessReaper();
  private final MasterStatus master;
  private final Thread shutdownHook = new Thread(this::killAll, "spark-cluster-reaper");

  private SparkStandaloneCluster(Path dir, String classPath, int masterPort, int masterWebUiPort) {
    this.dir = dir;
    this.classPath = classPath;
    this.masterPort = masterPort;
    this.master = new MasterStatus(masterWebUiPort);
  }

  /**
   * Starts a master and {@code workerCount} workers (1 core, 640 MB for executors each) under
   * {@code dir}, and returns once the master reports them all ALIVE.
   */
  public static SparkStandaloneCluster start(Path dir, int workerCount) throws IOException {
    Files.createDirectories(dir);
    // The master's ports are picked here (the workers need its URL, and its JSON page tells the
    // workers' state); workers take any free port.
    int masterWebUiPort = freePort();
    SparkStandaloneCluster cluster = new SparkStandaloneCluster(dir, testClassPath(), freePort(),
        masterWebUiPort);
    Runtime.getRuntime().addShutdownHook(cluster.shutdownHook);
    try {
      Path sparkHome = cluster.fakeSparkHome();
      cluster.daemons.add(cluster.launch("master", MASTER, Map.of(),
          "--host", "127.0.0.1", "--port", Integer.toString(cluster.masterPort),
          "--webui-port", Integer.toString(masterWebUiPort)));
      for (int i = 0; i < workerCount; i++) {
        Path workDir = Files.createDirectories(dir.resolve("worker-" + i));
        Path localDir = Files.createDirectories(dir.resolve("local-" + i));
        Process worker = cluster.launch("worker-" + i, WORKER,
            Map.of("SPARK_HOME", sparkHome.toString(),
                // Spark's launcher asks for the Scala version of a build tree it cannot find.
                "SPARK_SCALA_VERSION", "2.13",
                "SPARK_LOCAL_DIRS", localDir.toString()),
            "--host", "127.0.0.1", "--port", "0", "--webui-port", "0", "--cores", "1",
            "--memory", "640m", "--work-dir", workDir.toString(), cluster.masterUrl());
        cluster.daemons.add(worker);
        cluster.workers.add(worker);
      }
      cluster.awaitAliveWorkers(workerCount, START_DEADLINE);
      return cluster;
    } catch (IOException | RuntimeException | Error e) {
      try {
        cluster.close();
      } catch (RuntimeException survivors) {
        e.addSuppressed(survivors);
      }
      throw e;
    }
  }

  /** Where drivers connect, e.g. {@code spark://127.0.0.1:40123}. */
  public String masterUrl() {
    return "spark://127.0.0.1:" + masterPort;
  }

  /**
   * The class path executors need for {@code spark.executor.extraClassPath}: the test JVM's (Spark,
   * its Kafka source, the test classes), since the fake SPARK_HOME has no jars.
   */
  public String executorClassPath() {
    return classPath;
  }

  /** How many workers the master reports ALIVE right now. */
  public int aliveWorkers() {
    return master.aliveWorkers();
  }

  /** Waits until the master reports exactly {@code count} ALIVE workers, or fails. */
  public void awaitAliveWorkers(int count, Duration timeout) {
    Instant deadline = Instant.now().plus(timeout);
    String last = "no answer";
    while (Instant.now().isBefore(deadline)) {
      for (Process daemon : daemons) {
        if (!daemon.isAlive() && !killed.contains(daemon)) {
          throw new IllegalStateException("a Spark daemon exited with " + daemon.exitValue()
              + "; see the logs in " + dir);
        }
      }
      try {
        int alive = aliveWorkers();
        if (alive == count) {
          return;
        }
        last = alive + " ALIVE";
      } catch (UncheckedIOException e) {
        last = e.getMessage(); // the master's web UI is not up yet
      }
      LockSupport.parkNanos(Duration.ofMillis(100).toNanos());
    }
    throw new IllegalStateException("the master at " + masterUrl() + " did not report " + count
        + " ALIVE workers within " + timeout + " (last: " + last + "); see the logs in " + dir);
  }

  /**
   * Kills worker {@code index} (SIGKILL, nothing is told to the master or the driver) and returns
   * once the executors it launched are gone too. Spark's executors watch their worker and exit when
   * it disappears (about 2 s here); one that outlives {@link ProcessReaper#EXIT_DEADLINE} is killed as well, as
   * if its machine had died with the worker.
   */
  public void killWorker(int index) {
    Process worker = workers.get(index);
    killed.add(worker);
    List<ProcessHandle> executors = worker.descendants().toList();
    reaper.remember(executors);
    worker.destroyForcibly();
    ProcessReaper.awaitExit(List.of(worker.toHandle()));
    ProcessReaper.awaitExit(executors);
    executors.forEach(ProcessHandle::destroyForcibly);
    ProcessReaper.awaitExit(executors);
  }

  /** The live processes of this cluster: master, workers and their executors. */
  public List<ProcessHandle> liveProcesses() {
    List<ProcessHandle> live = new ArrayList<>();
    for (Process daemon : daemons) {
      daemon.descendants().forEach(live::add);
      if (daemon.isAlive()) {
        live.add(daemon.toHandle());
      }
    }
    return live.stream().filter(ProcessHandle::isAlive).toList();
  }

  /**
   * Kills every process this cluster started (executors first, then workers, then the master) and
   * waits until all have exited; fails if one survives.
   */
  @Override public void close() {
    List<ProcessHandle> survivors = killAll();
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException shuttingDown) {
      // the hook runs anyway
    }
    if (!survivors.isEmpty()) {
      throw new IllegalStateException("Spark processes still alive after close: " + survivors);
    }
  }

  private List<ProcessHandle> killAll() {
    return reaper.killAll(daemons);
  }

  private Process launch(String name, String mainClass, Map<String, String> env, String... args)
      throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.addAll(DAEMON_JVM_FLAGS);
    // What spark-submit and spark-class add on Java 17; harmless where not needed.
    command.addAll(List.of(JavaModuleOptions.defaultModuleOptionArray()));
    command.add("-cp");
    command.add(classPath);
    command.add(mainClass);
    command.addAll(List.of(args));
    ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile())
        .redirectErrorStream(true)
        .redirectOutput(dir.resolve(name + ".log").toFile());
    // Spark would otherwise pick the host's first non-loopback address for what it advertises.
    builder.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    builder.environment().putAll(env);
    Process process = builder.start();
    reaper.remember(List.of(process.toHandle()));
    return process;
  }

  /**
   * A SPARK_HOME for the workers' executor command builder: a RELEASE file marks it a distribution
   * and its jars directory is empty, so the executors' class path is the driver's
   * spark.executor.extraClassPath alone.
   */
  private Path fakeSparkHome() throws IOException {
    Path home = dir.resolve("spark-home");
    Files.createDirectories(home.resolve("jars"));
    Files.writeString(home.resolve("RELEASE"), "Spark classes from the test class path\n");
    return home;
  }

  private static String testClassPath() {
    // Surefire runs tests from a manifest-only jar; the real class path is in its own property.
    String surefire = System.getProperty("surefire.test.class.path");
    String classPath = surefire != null && !surefire.isBlank()
        ? surefire : System.getProperty("java.class.path");
    return String.join(File.pathSeparator, Stream.of(classPath.split(File.pathSeparator))
        .filter(entry -> !entry.isBlank()).toList());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
