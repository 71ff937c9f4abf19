package dev.apmagent.instrument;

import dev.apmagent.plugin.ClassLoaderHasClass;
import dev.apmagent.plugin.ContextField;
import dev.apmagent.plugin.ContextStore;
import dev.apmagent.plugin.Instrumentation;
import net.bytebuddy.asm.AsmVisitorWrapper;
import net.bytebuddy.description.field.FieldDescription;
import net.bytebuddy.description.field.FieldList;
import net.bytebuddy.description.method.MethodList;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.implementation.Implementation;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.pool.TypePool;
import net.bytebuddy.utility.OpenedClassReader;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.named;

/**
 * Adds the context field of {@link dev.apmagent.plugin.ContextStore} to the classes of the key types instrumentations
 * declare ({@link Instrumentation#contextKeyTypes()}), with an ASM visitor on the class file hook's
 * {@code decorate}: a private transient volatile field and the three methods of {@link ContextField}, which the class
 * then implements (ByteBuddy's DSL cannot add members to a decorated type, and its implementation context is off).
 *
 * <p><b>Which classes.</b> Only classes some instrumentation matched are asked (the hierarchy of those is already in
 * the transformation's type pool; no other class is parsed for this). A class gets a field for key type {@code K} when,
 * as it is loaded (never when it is retransformed, which cannot add fields):
 * <ul>
 *   <li>it is not an interface, and {@code K} is the only declared key type it is a subtype of: a class that is a
 *   {@code Statement} and a {@code Connection} gets no field, and both stores keep its objects in their maps;</li>
 *   <li>its superclass is a subtype of no declared key type. That superclass then has the field itself (its objects
 *   and the subclass's use it, through the inherited accessor) or, loaded before the agent or never matched, has
 *   none, and the map serves both. So no class ever shadows a context field or overrides its accessor;</li>
 *   <li>its loader sees {@link ContextField} (the class could not be defined otherwise);</li>
 *   <li>it is not serializable without a declared {@code serialVersionUID} (the interface and the public methods
 *   would change the computed one).</li>
 * </ul>
 * The decision depends only on the class files and on the installed instrumentations.
 *
 * <p><b>Retransformation.</b> The JVM hands a retransformation the class file as it was before any retransformation-
 * capable hook changed it, so without the field. A class that has one ({@link #hasField}) must get it again, or the
 * JVM refuses the new version (fields cannot be removed): the hook adds it whatever else it decides, with the key type
 * the rule gives (the same, unless the installed instrumentations changed: then possibly {@link #NO_KEY_TYPE}, an
 * orphaned field no store reads).
 */
final class ContextFieldInjector {

    static final String FIELD_NAME = "apmagent$context";
    /** The key type of a field that must stay but that no store owns any more. */
    static final String NO_KEY_TYPE = "";

    private static final String ACCESSOR = ContextField.class.getName();
    private static final String ACCESSOR_INTERNAL = ACCESSOR.replace('.', '/');

    private final String[] keyTypes;
    private final List<ElementMatcher<TypeDescription>> isKeyType = new ArrayList<ElementMatcher<TypeDescription>>();
    private final ElementMatcher<ClassLoader> seesAccessor = ClassLoaderHasClass.hasClassNamed(ACCESSOR);

    ContextFieldInjector(List<Instrumentation> instrumentations) {
        List<String> types = new ArrayList<String>();
        for (Instrumentation instrumentation : instrumentations) {
            for (String type : instrumentation.contextKeyTypes()) {
                if (!types.contains(type)) {
                    types.add(type);
                    isKeyType.add(hasSuperType(named(type)));
                }
            }
        }
        this.keyTypes = types.toArray(new String[0]);
    }

    /** The key type whose field {@code type} gets, or null for none (see the class comment). */
    String keyTypeFor(TypeDescription type, ClassLoader loader) {
        if (keyTypes.length == 0 || type.isInterface() || !seesAccessor.matches(loader)) {
            return null;
        }
        String keyType = null;
        for (int i = 0; i < keyTypes.length; i++) {
            if (isKeyType.get(i).matches(type)) {
                if (keyType != null) {
                    return null; // two key types
                }
                keyType = keyTypes[i];
            }
        }
        if (keyType == null || superclassIsKeyType(type) || changesSerialVersionUid(type)) {
            return null;
        }
        return keyType;
    }

    private boolean superclassIsKeyType(TypeDescription type) {
        TypeDescription.Generic superClass = type.getSuperClass();
        if (superClass == null) {
            return false;
        }
        TypeDescription erasure = superClass.asErasure();
        for (ElementMatcher<TypeDescription> matcher : isKeyType) {
            if (matcher.matches(erasure)) {
                return true;
            }
        }
        return false;
    }

    private static boolean changesSerialVersionUid(TypeDescription type) {
        return type.isAssignableTo(Serializable.class)
                && type.getDeclaredFields().filter(named("serialVersionUID")).isEmpty();
    }

    /**
     * Whether a loaded class declares a context field: it implements {@link ContextField} itself (compared by name:
     * the class must keep its field even if its loader resolved another copy of the interface).
     */
    static boolean hasField(Class<?> type) {
        for (Class<?> implemented : type.getInterfaces()) {
            if (implemented.getName().equals(ACCESSOR)) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the field for {@code keyType} (unless the class file already has one, from another hook of the agent), and
     * tells the stores of that type that objects with the field may come ({@link ContextStore#fieldAdded}).
     */
    static DynamicType.Builder<?> addField(DynamicType.Builder<?> builder, String keyType) {
        if (!keyType.equals(NO_KEY_TYPE)) {
            ContextStore.fieldAdded(keyType);
        }
        return builder.visit(new FieldWrapper(keyType));
    }

    private static final class FieldWrapper extends AsmVisitorWrapper.AbstractBase {
        private final String keyType;

        FieldWrapper(String keyType) {
            this.keyType = keyType;
        }

        @Override
        public ClassVisitor wrap(TypeDescription instrumentedType, ClassVisitor classVisitor,
                                 Implementation.Context implementationContext, TypePool typePool,
                                 FieldList<FieldDescription.InDefinedShape> fields,
                                 MethodList<?> methods, int writerFlags, int readerFlags) {
            return new FieldAdder(classVisitor, keyType);
        }
    }

    /** Implements the accessor in {@code visit}, adds its field and methods in {@code visitEnd}. */
    private static final class FieldAdder extends ClassVisitor {
        private final String keyType;
        private String owner;
        private boolean adding;

        FieldAdder(ClassVisitor next, String keyType) {
            super(OpenedClassReader.ASM_API, next);
            this.keyType = keyType;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName, String[] interfaces) {
            owner = name;
            adding = !contains(interfaces, ACCESSOR_INTERNAL);
            if (adding) {
                interfaces = append(interfaces, ACCESSOR_INTERNAL);
                if (signature != null) {
                    signature = signature + "L" + ACCESSOR_INTERNAL + ";"; // the generic signature lists interfaces too
                }
            }
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public void visitEnd() {
            if (adding) {
                addMembers();
            }
            super.visitEnd();
        }

        /** Straight-line code without branches: no stack map frames needed in any class file version. */
        private void addMembers() {
            int synthetic = Opcodes.ACC_SYNTHETIC;
            super.visitField(Opcodes.ACC_PRIVATE | Opcodes.ACC_TRANSIENT | Opcodes.ACC_VOLATILE | synthetic,
                    FIELD_NAME, "Ljava/lang/Object;", null, null).visitEnd();

            MethodVisitor keyTypeMethod = super.visitMethod(Opcodes.ACC_PUBLIC | synthetic, "apmagent$contextKeyType",
                    "()Ljava/lang/String;", null, null);
            keyTypeMethod.visitCode();
            keyTypeMethod.visitLdcInsn(keyType);
            keyTypeMethod.visitInsn(Opcodes.ARETURN);
            keyTypeMethod.visitMaxs(1, 1);
            keyTypeMethod.visitEnd();

            MethodVisitor load = super.visitMethod(Opcodes.ACC_PUBLIC | synthetic, "apmagent$lvContext",
                    "()Ljava/lang/Object;", null, null);
            load.visitCode();
            load.visitVarInsn(Opcodes.ALOAD, 0);
            load.visitFieldInsn(Opcodes.GETFIELD, owner, FIELD_NAME, "Ljava/lang/Object;");
            load.visitInsn(Opcodes.ARETURN);
            load.visitMaxs(1, 1);
            load.visitEnd();

            MethodVisitor store = super.visitMethod(Opcodes.ACC_PUBLIC | synthetic, "apmagent$svContext",
                    "(Ljava/lang/Object;)V", null, null);
            store.visitCode();
            store.visitVarInsn(Opcodes.ALOAD, 0);
            store.visitVarInsn(Opcodes.ALOAD, 1);
            store.visitFieldInsn(Opcodes.PUTFIELD, owner, FIELD_NAME, "Ljava/lang/Object;");
            store.visitInsn(Opcodes.RETURN);
            store.visitMaxs(2, 2);
            store.visitEnd();
        }

        private static boolean contains(String[] names, String name) {
            if (names != null) {
                for (String n : names) {
                    if (name.equals(n)) {
                        return true;
                    }
                }
            }
            return false;
        }

        private static String[] append(String[] names, String name) {
            int n = names == null ? 0 : names.length;
            String[] out = new String[n + 1];
            if (n > 0) {
                System.arraycopy(names, 0, out, 0, n);
            }
            out[n] = name;
            return out;
        }
    }
}
