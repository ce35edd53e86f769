import { Box, Text } from 'ink';
import type { TodoItem } from '../../tools/todo-write/todo-store.js';
import { visibleText } from './visible-text.js';

/** The main agent's todo list; nothing when it is empty. */
export function TodoPanel(props: { readonly todos: readonly TodoItem[] }) {
  if (props.todos.length === 0) return null;
  return (
    <Box flexDirection="column" borderStyle="single" borderColor="gray" paddingX={1}>
      <Text bold>Todos</Text>
      {props.todos.map((todo, index) => {
        switch (todo.status) {
          case 'completed':
            return (
              <Text key={index} color="green" strikethrough>
                ☑ {visibleText(todo.content, { newlines: 'escape' })}
              </Text>
            );
          case 'in_progress':
            return (
              <Text key={index} color="cyan" bold>
                ◐ {visibleText(todo.activeForm, { newlines: 'escape' })}
              </Text>
            );
          case 'pending':
            return <Text key={index}>☐ {visibleText(todo.content, { newlines: 'escape' })}</Text>;
        }
      })}
    </Box>
  );
}
