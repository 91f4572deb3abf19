package dev.freshet.planner.exec;

import dev.freshet.executor.operators.RowCalc;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.calcite.DataContext;
import org.apache.calcite.adapter.enumerable.JavaRowFormat;
import org.apache.calcite.adapter.enumerable.PhysType;
import org.apache.calcite.adapter.enumerable.PhysTypeImpl;
import org.apache.calcite.adapter.enumerable.RexToLixTranslator;
import org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.calcite.linq4j.tree.BlockBuilder;
import org.apache.calcite.linq4j.tree.BlockStatement;
import org.apache.calcite.linq4j.tree.ClassDeclaration;
import org.apache.calcite.linq4j.tree.ClassDeclarationFinder;
import org.apache.calcite.linq4j.tree.Expression;
import org.apache.calcite.linq4j.tree.Expressions;
import org.apache.calcite.linq4j.tree.MemberDeclaration;
import org.apache.calcite.linq4j.tree.ParameterExpression;
import org.apache.calcite.linq4j.tree.Primitive;
import org.apache.calcite.rex.RexBuilder;
import org.apache.calcite.rex.RexInputRef;
import org.apache.calcite.rex.RexNode;
import org.apache.calcite.rex.RexProgram;
import org.apache.calcite.rex.RexUtil;
import org.apache.calcite.sql.validate.SqlConformanceEnum;
import org.codehaus.commons.compiler.CompilerFactoryFactory;
import org.codehaus.commons.compiler.ISimpleCompiler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Compiles a {@link RexProgram} (a filter plus projections) into Java byte code implementing the
 * executor's {@link RowCalc}.
 *
 * <p>Calcite's {@link RexToLixTranslator} turns the expressions into linq4j code, as for
 * {@code EnumerableCalc}; Janino compiles it. Constant sub-expressions such as a {@code LIKE}
 * pattern are hoisted into static fields, so a row costs no allocation beyond its boxed results.
 *
 * <pre>{@code
 * RowCalc calc = CalcCompiler.compile(calc.getProgram(), typeFactory, dataContext);
 * }</pre>
 */
public final class CalcCompiler {
  private static final Logger LOG = LoggerFactory.getLogger(CalcCompiler.class);
  private static final AtomicLong CLASS_COUNTER = new AtomicLong();

  private CalcCompiler() {
  }

  /**
   * Compiles {@code program}; rows are arrays in Calcite's internal representation.
   *
   * @param program the filter and projections
   * @param typeFactory the type factory the program's types come from
   * @param dataContext values such as the current time, read by some functions
   */
  public static RowCalc compile(RexProgram program, JavaTypeFactory typeFactory,
      DataContext dataContext) {
    String className = "FreshetCalc" + CLASS_COUNTER.incrementAndGet();
    String source = generate(className, program, typeFactory);
    // What the expressions became is the first thing to read when a projection is slow.
    LOG.debug("Generated {} for {}:\n{}", className, program, source);
    return instantiate(className, source, dataContext);
  }

  /** Returns the Java source of a {@link RowCalc} named {@code className} computing {@code program}. */
  static String generate(String className, RexProgram program, JavaTypeFactory typeFactory) {
    program = SameTypeModulo.rewrite(program, new RexBuilder(typeFactory));
    ParameterExpression in = Expressions.parameter(Object[].class, "in");
    ParameterExpression out = Expressions.parameter(Object[].class, "out");
    PhysType inputType =
        PhysTypeImpl.of(typeFactory, program.getInputRowType(), JavaRowFormat.ARRAY, false);
    RexToLixTranslator.InputGetter inputGetter =
        new RexToLixTranslator.InputGetterImpl(in, inputType);

    // The condition and the projections are methods of their own, called from apply() below:
    // so a filtered-out row skips the projections, and a condition that is always false
    // (WHERE 1 = 0, how BI tools ask for a query's columns) folds to "return false" inside
    // accepts() instead of leaving the projections unreachable, which Java rejects.
    List<MemberDeclaration> members = new ArrayList<>();
    members.add(Expressions.fieldDecl(Modifier.PRIVATE | Modifier.FINAL, DataContext.ROOT, null));
    BlockBuilder accepts = new BlockBuilder();
    if (program.getCondition() == null) {
      accepts.add(Expressions.return_(null, Expressions.constant(true)));
    } else {
      Expression condition = RexToLixTranslator.translateCondition(program, typeFactory,
          accepts, inputGetter, name -> {
            throw new IllegalArgumentException("correlation is not supported: " + name);
          }, SqlConformanceEnum.DEFAULT);
      accepts.add(Expressions.return_(null, condition));
    }
    members.add(Expressions.methodDecl(Modifier.PRIVATE, boolean.class, "accepts",
        List.of(in), primitiveCasts(accepts)));
    BlockBuilder project = new BlockBuilder();
    List<Expression> projects = RexToLixTranslator.translateProjects(program, typeFactory,
        SqlConformanceEnum.DEFAULT, project, null, DataContext.ROOT, inputGetter, null);
    for (int i = 0; i < projects.size(); i++) {
      Expression e = projects.get(i);
      RexNode expr = program.expandLocalRef(program.getProjectList().get(i));
      RexNode column = RexUtil.removeNullabilityCast(typeFactory, expr);
      if (column instanceof RexInputRef
          && (expr.getType().isNullable() || !column.getType().isNullable())) {
        // A column passed through (maybe made nullable) keeps its object: both sides hold it in
        // the same representation, so unboxing and boxing it again would only allocate.
        e = Expressions.arrayIndex(in, Expressions.constant(((RexInputRef) column).getIndex()));
      } else if (Primitive.is(e.getType())) {
        e = Expressions.box(e);
      }
      project.add(Expressions.statement(
          Expressions.assign(Expressions.arrayIndex(out, Expressions.constant(i)), e)));
    }
    members.add(Expressions.methodDecl(Modifier.PRIVATE, void.class, "project",
        List.of(in, out), primitiveCasts(project)));

    ClassDeclaration declaration = Expressions.classDecl(Modifier.PUBLIC | Modifier.FINAL,
        className, null, List.of(RowCalc.class), members);
    declaration = (ClassDeclaration) declaration.accept(ClassDeclarationFinder.create());

    return "public final class " + className + " implements "
        + RowCalc.class.getCanonicalName() + " {\n"
        + "  public " + className + "(" + DataContext.class.getCanonicalName() + " root) {\n"
        + "    this.root = root;\n"
        + "  }\n"
        + "  public boolean apply(Object[] in, Object[] out) {\n"
        + "    if (!accepts(in)) {\n"
        + "      return false;\n"
        + "    }\n"
        + "    project(in, out);\n"
        + "    return true;\n"
        + "  }\n"
        + Expressions.toString(declaration.memberDeclarations, "\n", false)
        + "}\n";
  }

  private static BlockStatement primitiveCasts(BlockBuilder block) {
    return (BlockStatement) block.toBlock().accept(new PrimitiveIntegerCasts());
  }

  private static RowCalc instantiate(String className, String source, DataContext dataContext) {
    try {
      ClassLoader loader = CalcCompiler.class.getClassLoader();
      ISimpleCompiler compiler =
          CompilerFactoryFactory.getDefaultCompilerFactory(loader).newSimpleCompiler();
      compiler.setParentClassLoader(loader);
      compiler.cook(source);
      Class<?> clazz = compiler.getClassLoader().loadClass(className);
      return (RowCalc) clazz.getConstructor(DataContext.class).newInstance(dataContext);
    } catch (Exception e) {
      throw new IllegalStateException("Cannot compile generated expression code:\n" + source, e);
    }
  }
}
