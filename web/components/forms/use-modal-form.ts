import { type FormErrors, type UseFormReturnType, useForm } from '@mantine/form';
import { type FormEvent, useEffect } from 'react';
import { ApiError } from '@/lib/api-client.ts';
import { showFailure } from './show-failure.ts';

type ModalFormOptions<V> = {
  opened: boolean;
  onClose: () => void;
  /** While the request runs: Cancel is disabled and the dialog does not close. */
  pending: boolean;
  /** The values an opening starts from. */
  initial: () => V;
  validate: (values: V) => FormErrors;
  /** Starts again from `initial` when this changes while open (another record to edit). */
  target?: unknown;
  /** The failure toast's title, e.g. "Failed to create lead". */
  failTitle: string;
  /** The server's field messages (an `ApiError`'s details) on the form's fields. */
  serverErrors?: (err: ApiError) => FormErrors;
};

/**
 * The form of a create/edit dialog: checked on submit (a message appearing on blur would shift
 * the button under the pointer; a field's message goes away as soon as it is edited), back to
 * its starting values at each opening, and a submit whose failure puts the server's messages on
 * their fields and shows the one failure toast (`failedToast`).
 */
export function useModalForm<V extends Record<string, unknown>>({
  opened,
  onClose,
  pending,
  initial,
  validate,
  target,
  failTitle,
  serverErrors,
}: ModalFormOptions<V>) {
  const form: UseFormReturnType<V> = useForm<V>({
    mode: 'controlled',
    initialValues: initial(),
    validate,
  });

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new opening or target starts afresh
  useEffect(() => {
    if (opened) {
      const values = initial();
      form.setInitialValues(values);
      form.setValues(values);
      form.resetDirty(values);
      form.clearErrors();
    }
  }, [opened, target]);

  /** The submit handler: `save` sends the checked values; `onInvalid` sees the field errors. */
  const submit = (
    save: (values: V) => Promise<unknown>,
    onInvalid?: (errors: FormErrors) => void,
  ): ((event?: FormEvent<HTMLFormElement>) => void) =>
    form.onSubmit(async (values) => {
      try {
        await save(values);
      } catch (err) {
        if (err instanceof ApiError && serverErrors) form.setErrors(serverErrors(err));
        showFailure(failTitle, err);
      }
    }, onInvalid);

  /** The `FormModal` props that follow the form: open, closing, dirty, pending. */
  const modal = {
    opened,
    onClose: () => {
      if (!pending) onClose();
    },
    dirty: form.isDirty(),
    pending,
  };

  return { form, submit, modal };
}

/**
 * A search picker's props bound to a form field holding an id ('' while none): its value, its
 * error and blur, and the picked id (or '' when cleared).
 */
export function pickerProps<V>(form: UseFormReturnType<V>, field: keyof V & string) {
  const input = form.getInputProps(field);
  return {
    value: (input.value as string) || null,
    error: input.error,
    onBlur: input.onBlur,
    onChange: (id: string | null) => input.onChange(id ?? ''),
  };
}

/** A create dialog's props: `onCreated` gets what the server made (often with a secret shown once). */
export type CreateModalProps<T> = {
  opened: boolean;
  onClose: () => void;
  onCreated: (created: T) => void;
};

/**
 * `useModalForm` for a create dialog: pending while `create` runs, and a submit that sends
 * `toBody(values)` and hands the answer to `onCreated`.
 */
export function useCreateModalForm<V extends Record<string, unknown>, B, T>(
  { opened, onClose, onCreated }: CreateModalProps<T>,
  create: { isPending: boolean; mutateAsync: (body: B) => Promise<T> },
  {
    toBody,
    ...options
  }: Omit<ModalFormOptions<V>, 'opened' | 'onClose' | 'pending'> & {
    toBody: (values: V) => B;
  },
) {
  const { form, submit, modal } = useModalForm<V>({
    opened,
    onClose,
    pending: create.isPending,
    ...options,
  });
  const handleSubmit = submit(async (values) =>
    onCreated(await create.mutateAsync(toBody(values))),
  );
  return { form, modal, handleSubmit };
}
