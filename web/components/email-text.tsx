import { Text, type TextProps, Tooltip } from '@mantine/core';

/**
 * An e-mail address in a table cell or card: one line, cut with an ellipsis when the column is
 * narrower than the address (never broken mid-word over several lines), with the whole address
 * on hover and on keyboard focus.
 */
export function EmailText({ email, ...text }: { email: string } & TextProps) {
  return (
    <Tooltip
      label={email}
      events={{ hover: true, focus: true, touch: true }}
      openDelay={300}
      // The whole address wraps inside the screen, even on a phone.
      multiline
      maw="min(90vw, 420px)"
      style={{ overflowWrap: 'anywhere' }}
    >
      <Text
        truncate="end"
        tabIndex={0}
        data-testid="email-text"
        {...text}
        style={{ maxWidth: '100%', minWidth: 0 }}
      >
        {email}
      </Text>
    </Tooltip>
  );
}
