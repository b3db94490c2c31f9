import { BrowserRouter } from 'react-router';
import { AuthProvider } from '@/lib/auth.tsx';
import { DocumentTitle } from './document-title.tsx';
import { ScreenErrorBoundary } from './lazy-screen.tsx';
import { AppProviders } from './providers.tsx';
import { AppRoutes } from './router.tsx';

export function App() {
  return (
    <AppProviders>
      <AuthProvider>
        <BrowserRouter>
          <DocumentTitle />
          {/* Each lazy screen has its own boundary; this one catches the rest. */}
          <ScreenErrorBoundary>
            <AppRoutes />
          </ScreenErrorBoundary>
        </BrowserRouter>
      </AuthProvider>
    </AppProviders>
  );
}
